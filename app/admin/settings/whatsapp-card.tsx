import { Card, Checkbox, FormLayout, Layout, Select, TextField } from "@shopify/polaris";
import { SETTINGS_LIMITS as L } from "~/core/settings/limits";
import type { SettingsFormKit } from "./use-settings-form";

/** The "WhatsApp" card: confirmation after purchase with buttons, the modal's channel choice, links that must arrive in India (docs/whatsapp.md). */
export function WhatsappCard({ form }: { form: SettingsFormKit }) {
  const { field, number, select, checkbox } = form;
  return (
    <Layout.AnnotatedSection id="whatsapp"
      title="WhatsApp"
      description="Ask shoppers to confirm cash-on-delivery orders on WhatsApp with Confirm, Cancel and Change address buttons. Needs a WhatsApp sender and approved templates on the app's Twilio account (docs/whatsapp.md)."
    >
      <Card>
        <FormLayout>
          <Select
            {...select("whatsappConfirmation")}
            options={[
              { label: "Off: confirmation by SMS link", value: "off" },
              { label: "Unverified COD orders", value: "unverified" },
              { label: "Every COD order", value: "all" },
            ]}
            helpText="An unverified COD order gets a WhatsApp message with its summary and buttons; Confirm works like confirming by code (tags, holds released). With every COD order, verified ones are asked too (no hold, no SMS). Default: off."
          />
          <TextField
            {...number("whatsappReplyMinutes", "minutes")}
            helpText={`With no answer by then, the shopper gets the SMS link as before, then the deadline applies. From ${L.whatsappReplyMinutes.min} to ${L.whatsappReplyMinutes.max}. Default: 60.`}
          />
          <Checkbox
            {...checkbox("cancelOnWhatsappCancel")}
            helpText="Off (the default): the order is tagged cod-cancelled-by-shopper and you decide. On: it is cancelled too, with the customer as the reason."
          />
          <Checkbox {...checkbox("otpChannelChoice")} helpText="The popup offers both channels for the code and says where it went. Default: off (codes go by the channel above)." />
          <Checkbox
            {...checkbox("linksOnWhatsapp")}
            helpText="Links (order confirmation, address correction) go on WhatsApp first, SMS if WhatsApp fails. In India carriers drop SMS whose links you have not whitelisted (TRAI, since October 2024)."
          />
          <TextField
            {...field("linkDomain")}
            placeholder="Your store's .myshopify.com domain"
            helpText="The domain in links sent by SMS: one of your store's own domains. In India, register it (and the DLT template with a #url# variable) with your DLT entity, or carriers silently drop the SMS."
          />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
