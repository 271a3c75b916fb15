import type { DepositPattern } from "~/storefront/offer";
import { BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Layout, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useAppBridgeState } from "~/admin/app-bridge";
import { SETTINGS_LIMITS as L } from "~/core/settings/limits";
import { SETTINGS } from "~/core/settings/registry";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Checkout" card: ways to pay, discount codes, the prepaid saving, the COD fee, the deposit. */
export function CheckoutCard({ form, currency, depositPattern }: { form: SettingsFormKit; currency: string | null; depositPattern: DepositPattern }) {
  const { values, errors, setValues, field, select } = form;
  return (
    <Layout.AnnotatedSection id="checkout"
      title="Checkout"
      description="Discount codes applied for each way of paying, and the deposit asked for a partial payment."
    >
      <Card>
        <FormLayout>
          <Text as="h3" variant="headingSm">
            {SETTINGS.paymentModes.label}
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
                  ? depositPattern === "draft-order-deposit"
                    ? "Shoppers pay the deposit below now and the rest on delivery. Your store is on Shopify Plus, so the app uses Shopify's own draft-order deposit: the order is due on fulfillment."
                    : depositPattern === "deposit-code"
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
          <TextField {...field("discountCodeCod")} />
          <TextField {...field("discountCodePrepaid")} />
          <TextField {...field("discountCodePartial")} />
          <FormLayout.Group>
            <Select {...select("prepaidDiscountType")} />
            <TextField
              {...field("prepaidDiscountValue")}
              inputMode="decimal"
              suffix={values.prepaidDiscountType === "fixed" ? (currency ?? "") : "%"}
            />
          </FormLayout.Group>
          <Text as="h3" variant="headingSm">
            {SETTINGS.codFeeType.label}
          </Text>
          <FormLayout.Group>
            <Select {...select("codFeeType")} labelHidden />
            <TextField
              {...field("codFeeValue")}
              inputMode="decimal"
              suffix={values.codFeeType === "fixed" ? (currency ?? "") : "%"}
            />
          </FormLayout.Group>
          <FeeProductField form={form} />
          <Text as="p" tone="subdued">
            Create the codes under Discounts first: a code Shopify does not know is ignored.
          </Text>
          <FormLayout.Group>
            <Select {...select("depositType")} />
            <TextField
              {...field("depositValue")}
              inputMode="decimal"
              suffix={values.depositType === "fixed" ? (currency ?? "") : "%"}
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
  );
}

const FEE_HELP = SETTINGS.codFeeVariantId.help;

/**
 * The COD fee's product: chosen in Shopify's own product picker inside the admin (App Bridge), the variant's
 * ID typed where the picker is absent (local mode). The form posts the numeric variant ID either way.
 */
function FeeProductField({ form }: { form: SettingsFormKit }) {
  const { values, setValues, field } = form;
  const appBridge = useAppBridgeState();
  const [chosen, setChosen] = useState<string | null>(null);
  if (appBridge !== "present") return <TextField {...field("codFeeVariantId")} helpText={`${FEE_HELP} Enter its variant ID.`} />;
  const pick = async () => {
    const picked = await window.shopify.resourcePicker({ type: "variant", action: "select", multiple: false });
    const variant = picked?.[0];
    if (!variant) return;
    setValues((v) => ({ ...v, codFeeVariantId: variant.id.replace(/^gid:\/\/shopify\/ProductVariant\//, "") }));
    setChosen(variant.displayName ?? variant.title ?? null);
  };
  const { label, error } = field("codFeeVariantId");
  return (
    <BlockStack gap="100">
      <input type="hidden" name="codFeeVariantId" value={values.codFeeVariantId} />
      <Text as="p" fontWeight="medium">
        {label}
      </Text>
      <InlineStack gap="200" blockAlign="center">
        <Button onClick={pick}>{values.codFeeVariantId ? "Change the fee product" : "Choose the fee product"}</Button>
        {values.codFeeVariantId && (
          <>
            <Text as="span">{chosen ?? `Variant ${values.codFeeVariantId}`}</Text>
            <Button variant="plain" onClick={() => (setValues((v) => ({ ...v, codFeeVariantId: "" })), setChosen(null))}>
              Remove
            </Button>
          </>
        )}
      </InlineStack>
      {error && (
        <Text as="p" tone="critical">
          {error}
        </Text>
      )}
      <Text as="p" tone="subdued">
        {`${FEE_HELP} Then choose it here.`}
      </Text>
    </BlockStack>
  );
}
