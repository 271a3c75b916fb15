import { Banner, BlockStack, Card, DataTable, Text } from "@shopify/polaris";
import type { UnusualUse } from "~/otp/unusual-use.server";

const int = (n: number) => n.toLocaleString("en-US");

const PLACE_WORDS: Record<string, string> = {
  phone: "one number's own limit",
  phone_network: "one network asking for one number",
  ip: "one IP address",
  network: "one network",
  block: "one block of numbers from one network",
  spike: "the drain watch (many codes, few confirmed)",
  cooldown: "the resend wait",
  cap: "the daily cap (prepaid only)",
  cap_fallback: "the daily cap (cash on delivery confirmed after purchase)",
};

/** Whether there is anything to show (Home draws the card only then). */
export function hasUnusualUse(use: UnusualUse): boolean {
  return use.places.length > 0 || use.withoutIp > 0 || Object.values(use.refusedToday).some((n) => n > 0);
}

/**
 * Home's "where unusual use comes from", on every plan: the day's spent cap first (the merchant is told at
 * once), then the networks and blocks of numbers that asked for the most codes and the refusals by place.
 */
export function UnusualUseCard({ use }: { use: UnusualUse }) {
  const refusals = Object.entries(use.refusedToday).filter(([, n]) => n > 0);
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Where unusual use of codes comes from
        </Text>
        {use.capReachedToday > 0 && (
          <Banner tone="warning" title="Today's codes are used up">
            <Text as="p">
              {int(use.capReachedToday)} shopper{use.capReachedToday === 1 ? "" : "s"} met the daily cap today. They get your fallback until midnight UTC
              (Settings: cash on delivery confirmed after purchase, or prepaid only); no code is sent past the cap.
            </Text>
          </Banner>
        )}
        {use.drainSeenToday && (
          <Text as="p">
            Many codes today were never confirmed (the sign of someone spending your codes): each network is slowed to 2 codes an hour until the day ends. Shoppers still get theirs.
          </Text>
        )}
        {use.places.length > 0 && (
          <DataTable
            columnContentTypes={["text", "text", "numeric"]}
            headings={["Kind", "Where", "Codes asked, last 24 h"]}
            rows={use.places.map((p) => [p.kind === "network" ? "IP network" : "Number block", p.place, int(p.codes)])}
          />
        )}
        {use.withoutIp > 0 && <Text as="p">{int(use.withoutIp)} codes were asked with no readable shopper IP (they share one IP&apos;s limit).</Text>}
        {refusals.length > 0 && (
          <Text as="p" tone="subdued">
            Refused today: {refusals.map(([place, n]) => `${int(n)} by ${PLACE_WORDS[place] ?? place}`).join("; ")}.
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}
