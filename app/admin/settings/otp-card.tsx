import { Card, Checkbox, FormLayout, Layout, Select, TextField } from "@shopify/polaris";
import { SETTINGS_LIMITS as L } from "~/core/settings/limits";
import { CountryPicker, type CountryOption } from "./country-picker";
import type { SettingsFormKit } from "./use-settings-form";

/** The "One-time codes" card. */
export function OtpCard({ form, countries }: { form: SettingsFormKit; countries: CountryOption[] }) {
  const { field, number, select, checkbox } = form;
  return (
    <Layout.AnnotatedSection id="codes"
      title="One-time codes"
      description="Before a cash-on-delivery order, the shopper confirms their phone number with a code sent by text message."
    >
      <Card>
        <FormLayout>
          <Checkbox
            {...checkbox("otpEnabled")}
            helpText="When off, shoppers go straight to choosing how to pay, without a code. Default: on."
          />
          <TextField
            {...number("returningSkipDays", "days")}
            helpText={`A number that was verified in this many days does not need a new code. 0 always asks for one. From ${L.returningSkipDays.min} to ${L.returningSkipDays.max}. Default: 90.`}
          />
          <CountryPicker
            {...field("allowedCountries")}
            countries={countries}
            helpText="Type a country's name to limit codes to it: only numbers from the countries chosen get a code. None (the default) allows every country."
          />
          <Select
            {...select("smsChannel")}
            options={[
              { label: "SMS", value: "sms" },
              { label: "WhatsApp (SMS when WhatsApp fails)", value: "whatsapp" },
            ]}
            helpText="Default: SMS."
          />
          <TextField
            {...field("smsTemplate")}
            multiline={3}
            placeholder="482913 is your store's verification code. It expires in 10 minutes. Do not share it."
            helpText={`Your own text for the code message. It must contain {code}; {shop} becomes your store's name and {minutes} the code's lifetime. Empty (the default) sends our message in the shopper's language.`}
          />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}

/** The code limits: sensible defaults a merchant rarely changes, so they come after the settings that shape the store. */
export function OtpLimitsCard({ form }: { form: SettingsFormKit }) {
  const { number } = form;
  return (
    <Layout.AnnotatedSection id="code-limits"
      title="Code limits"
      description="How many codes a number and the store may receive, and for how long a code works. The defaults suit most stores; they protect you from abuse and from paying for texts nobody uses."
    >
      <Card>
        <FormLayout>
          <FormLayout.Group>
            <TextField
              {...number("otpSendLimit", "codes")}
              helpText={`How many codes one phone number can receive in the period beside. From ${L.otpSendLimit.min} to ${L.otpSendLimit.max}. Default: 3.`}
            />
            <TextField
              {...number("otpSendWindowSeconds", "seconds")}
              helpText={`The period of that limit. From ${L.otpSendWindowSeconds.min} to ${L.otpSendWindowSeconds.max.toLocaleString("en")}. Default: 600 (10 minutes).`}
            />
          </FormLayout.Group>
          <FormLayout.Group>
            <TextField
              {...number("otpTtlSeconds", "seconds")}
              helpText={`How long a code can be used. From ${L.otpTtlSeconds.min} to ${L.otpTtlSeconds.max.toLocaleString("en")}. Default: 600 (10 minutes).`}
            />
            <TextField
              {...number("otpResendCooldownSeconds", "seconds")}
              helpText={`How long a shopper waits before asking for another code. From ${L.otpResendCooldownSeconds.min} to ${L.otpResendCooldownSeconds.max}. Default: 30.`}
            />
          </FormLayout.Group>
          <FormLayout.Group>
            <TextField
              {...number("otpMaxAttempts", "tries")}
              helpText={`Wrong guesses allowed before the shopper needs a new code. From ${L.otpMaxAttempts.min} to ${L.otpMaxAttempts.max}. Default: 5.`}
            />
            <TextField
              {...number("dailySendCap", "codes")}
              helpText="The most codes your store sends in a day (UTC), a guard against abuse. Default: 1,000."
            />
          </FormLayout.Group>
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
