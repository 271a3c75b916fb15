import { Card, FormLayout, Layout, Text, TextField } from "@shopify/polaris";
import { SETTINGS_LIMITS as L } from "~/core/settings/limits";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Confirmation ladder" card: the steps an unconfirmed COD order climbs, and the quiet hours (docs/confirmation-ladder.md). */
export function LadderCard({ form, timezone }: { form: SettingsFormKit; timezone: string | null }) {
  const { field, number } = form;
  const after = `minutes after the order; empty: skip this step (0 to ${L.ladderMinutes.max.toLocaleString("en")})`;
  return (
    <Layout.AnnotatedSection id="ladder"
      title="Confirmation ladder"
      description="When an unverified COD order is not confirmed, try one channel after another: for example WhatsApp at once, the SMS link after 30 minutes, a voice call after 2 hours, then your team at 6 hours. The first answer on any step stops the ladder. Leave every step empty to send the single confirmation message of the WhatsApp card."
    >
      <Card>
        <FormLayout>
          <FormLayout.Group>
            <TextField {...number("ladderWhatsappMinutes", "min")} helpText={`The question with Confirm, Cancel and Change address buttons: ${after}.`} />
            <TextField {...number("ladderSmsMinutes", "min")} helpText={`The link to the confirmation page: ${after}.`} />
          </FormLayout.Group>
          <FormLayout.Group>
            <TextField
              {...number("ladderVoiceMinutes", "min")}
              helpText={`A call that says the order number and the amount due, then "press 1 to confirm, 2 to cancel, 3 to change the address": ${after}. No answer, voicemail or busy: the next step comes at once.`}
            />
            <TextField {...number("ladderPersonMinutes", "min")} helpText={`The order joins the "Needs a person" list for your team: ${after}.`} />
          </FormLayout.Group>
          <Text as="p" variant="bodySm" tone="subdued">
            Steps after the confirmation deadline (Enforcement card) never run: the deadline closes the order first.
          </Text>
          <FormLayout.Group>
            <TextField {...field("quietHoursStart")} placeholder="21:00" helpText={`No text or call from this time (${timezone ? `your store's time zone, ${timezone}` : "UTC until Shopify tells us your store's time zone"}).`} />
            <TextField {...field("quietHoursEnd")} placeholder="09:00" helpText="Until this time: a step due at night waits for it. Empty: no quiet hours." />
          </FormLayout.Group>
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
