import { Card, Checkbox, FormLayout, Layout, Select, TextField } from "@shopify/polaris";
import type { SettingsFormKit } from "./use-settings-form";

/** The "WhatsApp" card: confirmation after purchase with buttons, the modal's channel choice, links that must arrive in India (docs/whatsapp.md). */
export function WhatsappCard({ form }: { form: SettingsFormKit }) {
  const { field, number, select, checkbox } = form;
  return (
    <Layout.AnnotatedSection
      id="whatsapp"
      title="WhatsApp"
      description="Ask shoppers to confirm cash-on-delivery orders on WhatsApp with Confirm, Cancel and Change address buttons. Needs a WhatsApp sender and approved templates on the app's Twilio account (docs/whatsapp.md)."
    >
      <Card>
        <FormLayout>
          <Select {...select("whatsappConfirmation")} />
          <TextField {...number("whatsappReplyMinutes")} />
          <Checkbox {...checkbox("cancelOnWhatsappCancel")} />
          <Checkbox {...checkbox("otpChannelChoice")} />
          <Checkbox {...checkbox("linksOnWhatsapp")} />
          <TextField {...field("linkDomain")} placeholder="Your store's .myshopify.com domain" />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
