import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineStack,
  Layout,
  List,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { AdminPage, useAppBridgeState, useNotice } from "~/admin/app-bridge";
import { authenticate } from "~/shopify/app.server";
import { getShop, updateShop, upsertInstalledShop } from "~/settings/shop.server";
import { parseSettings, settingsFormValues, type SettingsErrors, type SettingsField, type SettingsFormValues } from "~/settings/settings";
import { SETTINGS_LIMITS as L } from "~/settings/limits";
import { LANGUAGES } from "~/shared/locales";
import { enforcementState, syncPaymentCustomization, type EnforcementState } from "~/enforcement/payment-customization.server";
import { depositPattern } from "~/storefront/offer";


export const meta: MetaFunction = () => [{ title: "Settings · COD Verify" }];
/** The merchant's settings: one-time codes, checkout, order tags, address correction, language. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = (await getShop(session.shop)) ?? (await upsertInstalledShop(session.shop));
  return {
    values: settingsFormValues(shop),
    currency: shop.currency,
    enforcement: enforcementState(shop),
    depositPattern: depositPattern(shop),
  };
}

type ActionData =
  | { status: "invalid"; errors: SettingsErrors; values: SettingsFormValues }
  | { status: "saved"; errors: SettingsErrors; values: SettingsFormValues; savedAt: string; enforcement: EnforcementState };

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  if (!(await getShop(session.shop))) await upsertInstalledShop(session.shop);
  const result = parseSettings(await request.formData());
  if (!result.ok) return data<ActionData>({ status: "invalid", errors: result.errors, values: result.values }, { status: 422 });
  // Only the schema's columns: parseSettings yields nothing else.
  const saved = await updateShop(session.shop, result.data);
  // The checkout function follows the settings at once (COD names, on or off); a failure is shown, the settings stay saved.
  await syncPaymentCustomization(saved);
  const shop = (await getShop(session.shop)) ?? saved;
  return {
    status: "saved",
    errors: {},
    values: settingsFormValues(shop),
    savedAt: shop.updatedAt.toISOString(),
    enforcement: enforcementState(shop),
  } satisfies ActionData;
}

export default function Settings() {
  const loaded = useLoaderData<typeof loader>();
  // Typed by hand: without the single-fetch type augmentation, `typeof action` does not unwrap data().
  const result = useActionData<ActionData>();
  // A save remounts the form with what was stored; a refused one keeps what the merchant typed.
  const key = result?.status === "saved" ? result.savedAt : "loaded";
  return (
    <SettingsForm
      key={key}
      initial={result?.values ?? loaded.values}
      errors={result?.errors ?? {}}
      saved={result?.status === "saved"}
      currency={loaded.currency}
      enforcement={result?.status === "saved" ? result.enforcement : loaded.enforcement}
      depositPattern={loaded.depositPattern}
    />
  );
}

const FIELD_NAMES: Record<SettingsField, string> = {
  otpEnabled: "Verify phone numbers with a code",
  returningSkipDays: "Skip the code for returning customers",
  otpSendLimit: "Codes per number",
  otpSendWindowSeconds: "Per how many seconds",
  otpTtlSeconds: "Code lifetime",
  otpResendCooldownSeconds: "Wait before a new code",
  otpMaxAttempts: "Attempts per code",
  dailySendCap: "Codes per day for the store",
  allowedCountries: "Countries allowed",
  smsChannel: "Send codes by",
  smsTemplate: "Message",
  locale: "Language",
  discountCodeCod: "Cash on delivery",
  discountCodePrepaid: "Prepaid",
  discountCodePartial: "Partial payment",
  prepaidDiscountType: "What the prepaid code saves",
  prepaidDiscountValue: "Saving",
  paymentModes: "Ways to pay offered",
  codFeeType: "Cash-on-delivery fee",
  codFeeValue: "Fee",
  codFeeVariantId: "Fee product variant ID",
  depositType: "Deposit type",
  depositValue: "Deposit",
  tagOrders: "Tag orders",
  tagVerified: "Verified tag",
  tagUnverified: "Unverified tag",
  tagModePrefix: "Payment mode tag prefix",
  addressCorrectionTtlHours: "Link valid for",
  autoAddressCorrection: "Ask automatically",
  enforceAtCheckout: "Hide cash on delivery at checkout unless verified",
  codMethodNames: "Cash-on-delivery payment methods",
  holdUnverifiedCod: "Hold fulfillment until the shopper confirms",
  confirmDeadlineHours: "Time to confirm",
  cancelUnconfirmed: "Cancel orders not confirmed in time",
};

/** What the merchant reads about checkout enforcement (enforcementState). */
export function enforcementSummary(e: EnforcementState): { tone: "success" | "info" | "warning" | "critical"; title: string; body: string } {
  switch (e.state) {
    case "active":
      return { tone: "success", title: "Enforcement active", body: "Shopify's checkout hides cash on delivery from shoppers who have not verified their phone." };
    case "off":
      return {
        tone: "info",
        title: "Enforcement off",
        body:
          e.why === "setting_off"
            ? "Cash on delivery is offered at checkout to everyone; unverified orders are still re-checked and confirmed after purchase."
            : e.why === "otp_off"
              ? "Phone verification is off, so cash on delivery is not hidden at checkout."
              : "Your plan is not active, so cash on delivery is not hidden at checkout.",
      };
    case "not_set_up":
      return {
        tone: "warning",
        title: "Enforcement not set up yet",
        body: e.error ? `Shopify refused the payment customization: ${e.error}` : "Save the settings to create the payment customization in Shopify.",
      };
    case "error":
      return { tone: "critical", title: "Enforcement could not be updated", body: `Shopify answered: ${e.error}. Save again to retry.` };
  }
}

function SettingsForm(props: {
  initial: SettingsFormValues;
  errors: SettingsErrors;
  saved: boolean;
  currency: string | null;
  enforcement: EnforcementState;
  depositPattern: ReturnType<typeof depositPattern>;
}) {
  const { errors } = props;
  const [values, setValues] = useState(props.initial);
  const navigation = useNavigation();
  const set = (field: SettingsField) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const toggle = (field: SettingsField) => (checked: boolean) => setValues((v) => ({ ...v, [field]: String(checked) }));
  const field = (name: SettingsField) => ({ name, value: values[name], onChange: set(name), error: errors[name], autoComplete: "off" });
  const number = (name: SettingsField, suffix?: string) => ({ ...field(name), type: "number" as const, suffix });
  const invalid = (Object.keys(errors) as SettingsField[]).filter((f) => errors[f]);
  const appBridge = useAppBridgeState();
  const dirty = (Object.keys(values) as SettingsField[]).some((f) => values[f] !== props.initial[f]);
  const refusedTitle = `${invalid.length === 1 ? "One setting needs" : `${invalid.length} settings need`} a change before saving`;
  // A toast in Shopify's admin, a banner elsewhere. Each answer is told once (its form is remounted per save).
  const saved = useNotice(props.saved ? { message: "Settings saved" } : null, props.initial);
  useNotice(invalid.length ? { message: `Not saved: ${refusedTitle.toLowerCase()}`, error: true } : null, errors);

  return (
    <AdminPage title="Settings">
      {/* data-save-bar: App Bridge shows Shopify's contextual save bar while the form differs from what was
          loaded (its Save submits the form, its Discard resets it); without App Bridge the Save button below does. */}
      <Form method="post" data-save-bar data-discard-confirmation onReset={() => setValues(props.initial)}>
        {/* Checkboxes post "true"/"false" so a missing field is refused rather than read as off. */}
        <input type="hidden" name="otpEnabled" value={values.otpEnabled} />
        <input type="hidden" name="tagOrders" value={values.tagOrders} />
        <input type="hidden" name="autoAddressCorrection" value={values.autoAddressCorrection} />
        <input type="hidden" name="enforceAtCheckout" value={values.enforceAtCheckout} />
        <input type="hidden" name="holdUnverifiedCod" value={values.holdUnverifiedCod} />
        <input type="hidden" name="cancelUnconfirmed" value={values.cancelUnconfirmed} />
        <input type="hidden" name="paymentModes" value={values.paymentModes} />
        <Layout>
          <Layout.Section>
            {saved}
            {invalid.length > 0 && (
              <Banner tone="critical" title={refusedTitle}>
                <List>
                  {invalid.map((f) => (
                    <List.Item key={f}>
                      {FIELD_NAMES[f]}: {errors[f]}
                    </List.Item>
                  ))}
                </List>
                <p>Nothing was saved.</p>
              </Banner>
            )}
          </Layout.Section>

          <Layout.AnnotatedSection
            title="One-time codes"
            description="Before a cash-on-delivery order, the shopper confirms their phone number with a code sent by text message."
          >
            <Card>
              <FormLayout>
                <Checkbox
                  label={FIELD_NAMES.otpEnabled}
                  helpText="When off, shoppers go straight to choosing how to pay, without a code. Default: on."
                  checked={values.otpEnabled === "true"}
                  onChange={toggle("otpEnabled")}
                  error={errors.otpEnabled}
                />
                <TextField
                  label={FIELD_NAMES.returningSkipDays}
                  {...number("returningSkipDays", "days")}
                  helpText={`A number that was verified in this many days does not need a new code. 0 always asks for one. From ${L.returningSkipDays.min} to ${L.returningSkipDays.max}. Default: 90.`}
                />
                <FormLayout.Group>
                  <TextField
                    label={FIELD_NAMES.otpSendLimit}
                    {...number("otpSendLimit", "codes")}
                    helpText={`How many codes one phone number can receive in the period beside. From ${L.otpSendLimit.min} to ${L.otpSendLimit.max}. Default: 3.`}
                  />
                  <TextField
                    label={FIELD_NAMES.otpSendWindowSeconds}
                    {...number("otpSendWindowSeconds", "seconds")}
                    helpText={`The period of that limit. From ${L.otpSendWindowSeconds.min} to ${L.otpSendWindowSeconds.max.toLocaleString("en")}. Default: 600 (10 minutes).`}
                  />
                </FormLayout.Group>
                <FormLayout.Group>
                  <TextField
                    label={FIELD_NAMES.otpTtlSeconds}
                    {...number("otpTtlSeconds", "seconds")}
                    helpText={`How long a code can be used. From ${L.otpTtlSeconds.min} to ${L.otpTtlSeconds.max.toLocaleString("en")}. Default: 600 (10 minutes).`}
                  />
                  <TextField
                    label={FIELD_NAMES.otpResendCooldownSeconds}
                    {...number("otpResendCooldownSeconds", "seconds")}
                    helpText={`How long a shopper waits before asking for another code. From ${L.otpResendCooldownSeconds.min} to ${L.otpResendCooldownSeconds.max}. Default: 30.`}
                  />
                </FormLayout.Group>
                <FormLayout.Group>
                  <TextField
                    label={FIELD_NAMES.otpMaxAttempts}
                    {...number("otpMaxAttempts", "tries")}
                    helpText={`Wrong guesses allowed before the shopper needs a new code. From ${L.otpMaxAttempts.min} to ${L.otpMaxAttempts.max}. Default: 5.`}
                  />
                  <TextField
                    label={FIELD_NAMES.dailySendCap}
                    {...number("dailySendCap", "codes")}
                    helpText="The most codes your store sends in a day (UTC), a guard against abuse. Default: 1,000."
                  />
                </FormLayout.Group>
                <TextField
                  label={FIELD_NAMES.allowedCountries}
                  {...field("allowedCountries")}
                  placeholder="Every country"
                  helpText="Two-letter country codes separated by commas, such as IN, AE. Only numbers from these countries get a code. Empty (the default) allows every country."
                />
                <Select
                  label={FIELD_NAMES.smsChannel}
                  name="smsChannel"
                  options={[
                    { label: "SMS", value: "sms" },
                    { label: "WhatsApp (SMS when WhatsApp fails)", value: "whatsapp" },
                  ]}
                  value={values.smsChannel}
                  onChange={set("smsChannel")}
                  error={errors.smsChannel}
                  helpText="Default: SMS."
                />
                <TextField
                  label={FIELD_NAMES.smsTemplate}
                  {...field("smsTemplate")}
                  multiline={3}
                  placeholder="482913 is your store's verification code. It expires in 10 minutes. Do not share it."
                  helpText={`Your own text for the code message. It must contain {code}; {shop} becomes your store's name and {minutes} the code's lifetime. Empty (the default) sends our message in the shopper's language.`}
                />
              </FormLayout>
            </Card>
          </Layout.AnnotatedSection>

          <Layout.AnnotatedSection title="Language" description="For messages and pages when the shopper's own language is not known.">
            <Card>
              <Select
                label={FIELD_NAMES.locale}
                name="locale"
                options={LANGUAGES.map((l) => ({ label: l.label, value: l.code }))}
                value={values.locale}
                onChange={set("locale")}
                error={errors.locale}
                helpText="The language of texts and the address form when the shopper's is not one of these. Default: your store's language, else English."
              />
            </Card>
          </Layout.AnnotatedSection>

          <Layout.AnnotatedSection
            title="Checkout"
            description="Discount codes applied for each way of paying, and the deposit asked for a partial payment."
          >
            <Card>
              <FormLayout>
                <Text as="h3" variant="headingSm">
                  {FIELD_NAMES.paymentModes}
                </Text>
                {(["cod", "prepaid", "partial"] as const).map((mode) => (
                  <Checkbox
                    key={mode}
                    label={{ cod: "Cash on delivery", prepaid: "Pay now online (prepaid)", partial: "Deposit now, rest on delivery (partial)" }[mode]}
                    checked={values.paymentModes.split(",").includes(mode)}
                    onChange={(checked) =>
                      setValues((v) => {
                        const modes = new Set(v.paymentModes.split(",").filter(Boolean));
                        if (checked) modes.add(mode);
                        else modes.delete(mode);
                        return { ...v, paymentModes: ["cod", "prepaid", "partial"].filter((m) => modes.has(m)).join(",") };
                      })
                    }
                    helpText={
                      mode === "partial"
                        ? props.depositPattern === "draft-order-deposit"
                          ? "Shoppers pay the deposit below now and the rest on delivery. Your store is on Shopify Plus, so the app uses Shopify's own draft-order deposit: the order is due on fulfillment."
                          : props.depositPattern === "deposit-code"
                            ? "Shoppers pay the deposit below now and the rest on delivery. Shopify offers draft-order deposits on Shopify Plus only, so the app gives each shopper a single-use code for the deposit price at your normal checkout, then adds the balance to the order as a line \"Balance due on delivery (cash)\": the order shows the full price, the deposit paid and the balance to collect. If the balance cannot be added, the order is held and tagged cod-balance-missing."
                            : "Shoppers pay the deposit below now and the rest on delivery: with Shopify's draft-order deposit on Shopify Plus, otherwise with a single-use code for the deposit price and the balance added to the order afterwards. The app learns your plan when it is opened after install."
                        : undefined
                    }
                  />
                ))}
                {errors.paymentModes && (
                  <Text as="p" tone="critical">
                    {errors.paymentModes}
                  </Text>
                )}
                <Text as="h3" variant="headingSm">
                  Discount codes
                </Text>
                <TextField label={FIELD_NAMES.discountCodeCod} {...field("discountCodeCod")} helpText="Applied when the shopper pays in cash on delivery. Empty (the default): none." />
                <TextField label={FIELD_NAMES.discountCodePrepaid} {...field("discountCodePrepaid")} helpText="Applied when the shopper pays everything online, e.g. an incentive to prepay. Empty (the default): none." />
                <TextField label={FIELD_NAMES.discountCodePartial} {...field("discountCodePartial")} helpText="Applied to the order when the shopper pays a deposit now and the rest on delivery. Empty (the default): none." />
                <FormLayout.Group>
                  <Select
                    label={FIELD_NAMES.prepaidDiscountType}
                    name="prepaidDiscountType"
                    options={[
                      { label: "Not shown", value: "none" },
                      { label: "A percentage", value: "percentage" },
                      { label: "A fixed amount", value: "fixed" },
                    ]}
                    value={values.prepaidDiscountType}
                    onChange={set("prepaidDiscountType")}
                    error={errors.prepaidDiscountType}
                    helpText="Shoppers see the saving beside Pay now. Match your prepaid code's value."
                  />
                  <TextField
                    label={FIELD_NAMES.prepaidDiscountValue}
                    {...field("prepaidDiscountValue")}
                    inputMode="decimal"
                    suffix={values.prepaidDiscountType === "fixed" ? (props.currency ?? "") : "%"}
                  />
                </FormLayout.Group>
                <Text as="h3" variant="headingSm">
                  {FIELD_NAMES.codFeeType}
                </Text>
                <FormLayout.Group>
                  <Select
                    label={FIELD_NAMES.codFeeType}
                    labelHidden
                    name="codFeeType"
                    options={[
                      { label: "No fee", value: "none" },
                      { label: "Fixed amount", value: "fixed" },
                      { label: "Percentage of the items", value: "percentage" },
                    ]}
                    value={values.codFeeType}
                    onChange={set("codFeeType")}
                    error={errors.codFeeType}
                  />
                  <TextField
                    label={FIELD_NAMES.codFeeValue}
                    {...field("codFeeValue")}
                    inputMode="decimal"
                    suffix={values.codFeeType === "fixed" ? (props.currency ?? "") : "%"}
                  />
                </FormLayout.Group>
                <TextField
                  label={FIELD_NAMES.codFeeVariantId}
                  {...field("codFeeVariantId")}
                  helpText="The fee is added to cash-on-delivery carts as this product, so it works on every plan and shows in the order. Create a product such as 'Cash on delivery fee' priced at the fixed fee (or at 1.00 for a percentage fee: the app sets the quantity that makes up the fee), not shipped, and paste its variant ID."
                />
                <Text as="p" tone="subdued">
                  Create the codes under Discounts first: a code Shopify does not know is ignored.
                </Text>
                <FormLayout.Group>
                  <Select
                    label={FIELD_NAMES.depositType}
                    name="depositType"
                    options={[
                      { label: "Percentage of the order", value: "percentage" },
                      { label: "Fixed amount", value: "fixed" },
                    ]}
                    value={values.depositType}
                    onChange={set("depositType")}
                    error={errors.depositType}
                    helpText="Default: percentage."
                  />
                  <TextField
                    label={FIELD_NAMES.depositValue}
                    {...field("depositValue")}
                    inputMode="decimal"
                    suffix={values.depositType === "fixed" ? (props.currency ?? "") : "%"}
                    helpText={
                      values.depositType === "fixed"
                        ? "The amount paid online, in your store's currency; the rest is paid on delivery."
                        : `The share paid online, from ${L.depositPercentage.min} to ${L.depositPercentage.max} %; the rest is paid on delivery. Default: 20 %.`
                    }
                  />
                </FormLayout.Group>
                <Text as="p" tone="subdued">
                  Shopify offers deposits only on plans with payment terms (Shopify Plus at the time of writing); elsewhere shoppers who choose a partial payment use your normal checkout.
                </Text>
              </FormLayout>
            </Card>
          </Layout.AnnotatedSection>

          <Layout.AnnotatedSection
            title="Enforcement"
            description="Cash on delivery only for verified phones: hidden at checkout unless verified, every order re-checked, and a confirmation by text message after purchase when neither worked."
          >
            <Card>
              <FormLayout>
                {(() => {
                  const summary = enforcementSummary(props.enforcement);
                  return (
                    <Banner tone={summary.tone} title={summary.title}>
                      <p>{summary.body}</p>
                    </Banner>
                  );
                })()}
                <Checkbox
                  label={FIELD_NAMES.enforceAtCheckout}
                  helpText="Shopify's checkout offers your cash-on-delivery methods only to shoppers who verified their phone (or returning verified customers). Default: on."
                  checked={values.enforceAtCheckout === "true"}
                  onChange={toggle("enforceAtCheckout")}
                  error={errors.enforceAtCheckout}
                />
                <TextField
                  label={FIELD_NAMES.codMethodNames}
                  {...field("codMethodNames")}
                  multiline={3}
                  helpText={`The names of your cash-on-delivery payment methods exactly as checkout shows them, one a line (up to ${L.codMethodNamesMax}). Default: Cash on Delivery (COD).`}
                />
                <Text as="h3" variant="headingSm">
                  After purchase
                </Text>
                <Text as="p" tone="subdued">
                  A cash-on-delivery order that arrives without a verified phone is tagged cod-pending and the shopper gets a text with a link to confirm it with a code. Confirmed orders get your verified tag; the others become cod-unconfirmed after the time below.
                </Text>
                <Checkbox
                  label={FIELD_NAMES.holdUnverifiedCod}
                  helpText="Puts the order's fulfillment on hold until the shopper confirms, so it is not shipped by mistake. Default: off."
                  checked={values.holdUnverifiedCod === "true"}
                  onChange={toggle("holdUnverifiedCod")}
                  error={errors.holdUnverifiedCod}
                />
                <TextField
                  label={FIELD_NAMES.confirmDeadlineHours}
                  {...number("confirmDeadlineHours", "hours")}
                  helpText={`How long the shopper has to confirm. From ${L.confirmDeadlineHours.min} to ${L.confirmDeadlineHours.max}. Default: 24.`}
                />
                <Checkbox
                  label={FIELD_NAMES.cancelUnconfirmed}
                  helpText="Cancels an order that was not confirmed in time (restocked, the shopper notified). Default: off."
                  checked={values.cancelUnconfirmed === "true"}
                  onChange={toggle("cancelUnconfirmed")}
                  error={errors.cancelUnconfirmed}
                />
              </FormLayout>
            </Card>
          </Layout.AnnotatedSection>

          <Layout.AnnotatedSection title="Order tags" description="Tags added to new orders so you can see at a glance which ones were verified and how they are paid.">
            <Card>
              <FormLayout>
                <Checkbox
                  label={FIELD_NAMES.tagOrders}
                  helpText="When off, orders are left untagged. Default: on."
                  checked={values.tagOrders === "true"}
                  onChange={toggle("tagOrders")}
                  error={errors.tagOrders}
                />
                <FormLayout.Group>
                  <TextField label={FIELD_NAMES.tagVerified} {...field("tagVerified")} helpText="Cash-on-delivery orders whose phone was verified. Default: cod-verified." />
                  <TextField
                    label={FIELD_NAMES.tagUnverified}
                    {...field("tagUnverified")}
                    helpText="Cash-on-delivery orders whose phone was not verified. Default: cod-unverified."
                  />
                </FormLayout.Group>
                <TextField
                  label={FIELD_NAMES.tagModePrefix}
                  {...field("tagModePrefix")}
                  helpText="Followed by cod, prepaid or partial, e.g. payment-mode:cod. Default: payment-mode:. Tags cannot contain commas."
                />
              </FormLayout>
            </Card>
          </Layout.AnnotatedSection>

          <Layout.AnnotatedSection
            title="Address correction"
            description="A shopper whose order has a doubtful address gets a text with a link to correct it."
          >
            <Card>
              <FormLayout>
                <Checkbox
                  label={FIELD_NAMES.autoAddressCorrection}
                  helpText="Text the link as soon as a new order arrives with an address that looks incomplete (no house number, a wrong postal code). Default: off."
                  checked={values.autoAddressCorrection === "true"}
                  onChange={toggle("autoAddressCorrection")}
                  error={errors.autoAddressCorrection}
                />
                <TextField
                  label={FIELD_NAMES.addressCorrectionTtlHours}
                  {...number("addressCorrectionTtlHours", "hours")}
                  helpText={`How long the link works. From ${L.addressCorrectionTtlHours.min} to ${L.addressCorrectionTtlHours.max} (a week). Default: 72.`}
                />
              </FormLayout>
            </Card>
          </Layout.AnnotatedSection>

          {appBridge !== "present" && dirty && (
            <div className="admin-save-bar" role="region" aria-label="Unsaved changes">
              <Text as="p" fontWeight="semibold">
                Unsaved changes
              </Text>
              <InlineStack gap="200">
                <Button onClick={() => setValues(props.initial)}>Discard</Button>
                <Button submit variant="primary" loading={navigation.state === "submitting"}>
                  Save
                </Button>
              </InlineStack>
            </div>
          )}
          {appBridge !== "present" && (
            <Layout.Section>
              <BlockStack gap="400">
                <InlineStack align="end">
                  <Button submit variant="primary" loading={navigation.state === "submitting"}>
                    Save
                  </Button>
                </InlineStack>
              </BlockStack>
            </Layout.Section>
          )}
        </Layout>
      </Form>
    </AdminPage>
  );
}
