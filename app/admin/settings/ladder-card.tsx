import { Card, FormLayout, Layout, Text, TextField } from "@shopify/polaris";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Confirmation ladder" card: the steps an unconfirmed COD order climbs, and the quiet hours (docs/confirmation-ladder.md). */
export function LadderCard({ form, timezone }: { form: SettingsFormKit; timezone: string | null }) {
  const { field, number } = form;
  const start = field("quietHoursStart");
  return (
    <Layout.AnnotatedSection
      id="ladder"
      title="Confirmation ladder"
      description="When an unverified COD order is not confirmed, try one channel after another: for example WhatsApp at once, the SMS link after 30 minutes, a voice call after 2 hours, then your team at 6 hours. The first answer on any step stops the ladder. Leave every step empty to send the single WhatsApp or SMS confirmation above."
    >
      <Card>
        <FormLayout>
          <FormLayout.Group>
            <TextField {...number("ladderWhatsappMinutes")} />
            <TextField {...number("ladderSmsMinutes")} />
          </FormLayout.Group>
          <FormLayout.Group>
            <TextField {...number("ladderVoiceMinutes")} />
            <TextField {...number("ladderPersonMinutes")} />
          </FormLayout.Group>
          <Text as="p" variant="bodySm" tone="subdued">
            Steps after the time to confirm (Enforcement) never run: the deadline closes the order first.
          </Text>
          <FormLayout.Group>
            <TextField {...start} placeholder="21:00" helpText={`${start.helpText} ${timezone ? `Your store's time zone is ${timezone}.` : "UTC until Shopify tells us your store's time zone."}`} />
            <TextField {...field("quietHoursEnd")} placeholder="09:00" />
          </FormLayout.Group>
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
