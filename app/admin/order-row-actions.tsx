import { Form } from "@remix-run/react";
import { Badge, Button, InlineStack } from "@shopify/polaris";
import { maskPhone } from "~/shared/phone-mask";
import { useAppBridgeState } from "./app-bridge";

export type OrderRowActionsProps = {
  name: string;
  gid: string;
  /** The order in Shopify's admin: `shopify:admin/orders/<id>` for App Bridge, the admin's https address without it. */
  appBridgeUrl: string | null;
  adminUrl: string | null;
  phone: string | null;
  blocked: boolean;
  /** A confirmation after purchase is waiting for the shopper: its link can go out again. */
  canResend: boolean;
  /** The intent being posted for this order, if any (the button shows it is working). */
  busy: "block" | "resend" | null;
};

/** The Orders page's actions on one order: open it in Shopify, resend the confirmation, block its number. */
export function OrderRowActions({ name, gid, appBridgeUrl, adminUrl, phone, blocked, canResend, busy }: OrderRowActionsProps) {
  const appBridge = useAppBridgeState();
  // App Bridge navigates the admin around the app for `shopify:admin/...`; without it, the admin's own address in the top window.
  const openUrl = appBridge === "present" ? appBridgeUrl : adminUrl;
  return (
    <InlineStack gap="200" wrap={false} blockAlign="center">
      {openUrl && (
        <Button url={openUrl} target={appBridge === "present" ? undefined : "_top"} size="slim" accessibilityLabel={`Open order ${name} in Shopify`}>
          Open
        </Button>
      )}
      {canResend && phone && (
        <Form method="post">
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="orderGid" value={gid} />
          <Button submit size="slim" loading={busy === "resend"} accessibilityLabel={`Resend link to confirm order ${name}`}>
            Resend link
          </Button>
        </Form>
      )}
      {phone &&
        (blocked ? (
          <Badge tone="critical">Number blocked</Badge>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="block" />
            <input type="hidden" name="orderGid" value={gid} />
            <Button submit size="slim" loading={busy === "block"} accessibilityLabel={`Block number ${maskPhone(phone)} of order ${name}`}>
              Block number
            </Button>
          </Form>
        ))}
    </InlineStack>
  );
}
