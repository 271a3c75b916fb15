import { Form } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
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
  /** The block was made from this row ("Blocked from order #n"): the row offers its undo. */
  blockedHere: boolean;
  /** A confirmation after purchase is waiting for the shopper: its link can go out again. */
  canResend: boolean;
  /** The intent being posted for this order, if any (the button shows it is working). */
  busy: "block" | "unblock" | "resend" | null;
};

/** The Orders page's actions on one order: open it in Shopify, resend the confirmation, block its number. */
export function OrderRowActions({ name, gid, appBridgeUrl, adminUrl, phone, blocked, blockedHere, canResend, busy }: OrderRowActionsProps) {
  const appBridge = useAppBridgeState();
  // App Bridge navigates the admin around the app for `shopify:admin/...`; without it, the admin's own address in the top window.
  const openUrl = appBridge === "present" ? appBridgeUrl : adminUrl;
  // Blocking stops every code to that number: a second, explicit press confirms it, Cancel takes it back.
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.querySelector<HTMLButtonElement>("button[type=submit]")?.focus();
  }, [confirming]);
  // Once a block (or its undo) asked from this row lands, the focus goes to what the row offers next: Undo, or
  // Block number again, scrolled whole into view (on a phone the table scrolls sideways, and the actions are its last column).
  const asked = useRef<"block" | "unblock" | null>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (blocked) setConfirming(false);
    if (asked.current !== (blocked ? "block" : "unblock")) return;
    asked.current = null;
    const next = actionsRef.current?.querySelector<HTMLButtonElement>(blocked ? "[data-row-action=undo] button" : "[data-row-action=block] button");
    next?.focus({ preventScroll: true });
    next?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [blocked]);
  return (
    <div ref={actionsRef}>
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
            <InlineStack gap="200" wrap={false} blockAlign="center">
              <Badge tone="critical">Number blocked</Badge>
              {blockedHere && (
                <Form method="post" data-row-action="undo" onSubmit={() => (asked.current = "unblock")}>
                  <input type="hidden" name="intent" value="unblock" />
                  <input type="hidden" name="orderGid" value={gid} />
                  <Button submit size="slim" variant="plain" loading={busy === "unblock"} accessibilityLabel={`Undo: unblock ${maskPhone(phone)} of order ${name}`}>
                    Undo
                  </Button>
                </Form>
              )}
            </InlineStack>
          ) : (
            confirming || busy === "block" ? (
              <div ref={confirmRef}>
                <Form method="post" onSubmit={() => (asked.current = "block")}>
                  <input type="hidden" name="intent" value="block" />
                  <input type="hidden" name="orderGid" value={gid} />
                  <InlineStack gap="200" wrap={false} blockAlign="center">
                    <Button submit size="slim" tone="critical" loading={busy === "block"} accessibilityLabel={`Yes, block ${maskPhone(phone)}: no more codes to it`}>
                      Yes, block
                    </Button>
                    <Button size="slim" variant="plain" onClick={() => setConfirming(false)} accessibilityLabel={`Keep ${maskPhone(phone)} unblocked`}>
                      Cancel
                    </Button>
                  </InlineStack>
                </Form>
              </div>
            ) : (
              <span data-row-action="block">
                <Button size="slim" onClick={() => setConfirming(true)} accessibilityLabel={`Block number ${maskPhone(phone)} of order ${name}`}>
                  Block number
                </Button>
              </span>
            )
          ))}
      </InlineStack>
    </div>
  );
}
