import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { Banner, Button, InlineStack, Layout, List, Text } from "@shopify/polaris";
import { useAppBridgeState, useNotice } from "~/admin/app-bridge";
import { SETTINGS, sectionFields, sectionTitle, type SettingsSectionId } from "~/core/settings/registry";
import type { SettingsErrors, SettingsField, SettingsFormValues } from "~/core/settings/settings";
import { useSettingsForm, type SettingsFormKit } from "./use-settings-form";

/**
 * One settings section's form: it posts that section's fields and nothing else, so Enter in a field saves
 * only them. After a save the "saved" line takes the focus where the merchant can see it; after a refusal
 * the list of what to change does, and each field says why beside it.
 */
export function SettingsSectionForm(props: {
  section: SettingsSectionId;
  initial: SettingsFormValues;
  errors: SettingsErrors;
  saved: boolean;
  children: (form: SettingsFormKit) => ReactNode;
}) {
  const { section, errors } = props;
  const fields = sectionFields(section);
  const form = useSettingsForm(props.initial, errors);
  const { values, setValues } = form;
  const navigation = useNavigation();
  const appBridge = useAppBridgeState();
  const title = sectionTitle(section);
  const invalid = fields.filter((f) => errors[f]);
  const dirty = fields.some((f) => values[f] !== props.initial[f]);
  const refusedTitle = `${invalid.length === 1 ? "One setting needs" : `${invalid.length} settings need`} a change before saving`;
  // In Shopify's admin a toast says it too; the line in the page is what keeps the focus.
  useNotice(props.saved ? { message: `${title} saved`, toastOnly: true } : null, props.initial);
  useNotice(invalid.length ? { message: `Not saved: ${refusedTitle.toLowerCase()}`, error: true, toastOnly: true } : null, errors);
  const answer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if ((!props.saved && !invalid.length) || !answer.current) return;
    answer.current.scrollIntoView({ block: "center" });
    answer.current.focus();
  }, [props.saved, errors, invalid.length]);
  const saving = navigation.state === "submitting";

  return (
    // data-save-bar: App Bridge shows Shopify's save bar while the form differs from what was loaded; without
    // App Bridge the Save button below does.
    <Form method="post" data-save-bar data-discard-confirmation onReset={() => setValues(props.initial)} aria-label={title}>
      {/* Checkboxes post "true"/"false" so a missing field is refused rather than read as off. */}
      {fields
        .filter((f: SettingsField) => SETTINGS[f].input === "switch" || SETTINGS[f].input === "modes")
        .map((f) => (
          <input key={f} type="hidden" name={f} value={values[f]} />
        ))}
      <Layout>
        {(props.saved || invalid.length > 0) && (
          <Layout.Section>
            <div ref={answer} tabIndex={-1} className="settings-answer">
              {props.saved ? (
                <Banner tone="success" title={`${title} saved`} />
              ) : (
                <Banner tone="critical" title={refusedTitle}>
                  <List>
                    {invalid.map((f) => (
                      <List.Item key={f}>
                        {SETTINGS[f].label}: {errors[f]}
                      </List.Item>
                    ))}
                  </List>
                  <p>Nothing was saved.</p>
                </Banner>
              )}
            </div>
          </Layout.Section>
        )}
        {props.children(form)}
        {appBridge !== "present" && dirty && (
          <div className="admin-save-bar" role="region" aria-label="Unsaved changes">
            <Text as="p" fontWeight="semibold">
              Unsaved changes
            </Text>
            <InlineStack gap="200">
              <Button onClick={() => setValues(props.initial)}>Discard</Button>
              <Button submit variant="primary" loading={saving}>
                Save
              </Button>
            </InlineStack>
          </div>
        )}
        {appBridge !== "present" && (
          <Layout.Section>
            <InlineStack align="end">
              <Button submit variant="primary" loading={saving}>
                {`Save ${title.toLowerCase()}`}
              </Button>
            </InlineStack>
          </Layout.Section>
        )}
      </Layout>
    </Form>
  );
}
