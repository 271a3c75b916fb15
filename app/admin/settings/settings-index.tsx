import { Link } from "@remix-run/react";
import { BlockStack, Card, Layout, Text } from "@shopify/polaris";
import { SETTINGS_SECTIONS } from "~/core/settings/registry";

/** Settings kept on the pages they act on, listed so the index is the one place to look. */
const ELSEWHERE = [
  { url: "/app/risk", title: "Risk rules", summary: "Risk bands, what each band does, deposits and the traffic sources never offered COD (on the Risk page)." },
  { url: "/app/deliveries", title: "Delivery reminders", summary: "The delivery-day reminder, failed-delivery recovery and your courier's tags (on Deliveries)." },
  { url: "/app/blocklist", title: "Blocked phone numbers", summary: "Numbers that never get a code." },
] as const;

function Rows({ rows, label }: { rows: readonly { url: string; title: string; summary: string }[]; label: string }) {
  return (
    <ul className="settings-index" aria-label={label}>
      {rows.map((r) => (
        <li key={r.url}>
          <Link to={r.url} className="settings-index-row">
            <span className="settings-index-title">{r.title}</span>
            <span className="settings-index-summary">{r.summary}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The settings index: one row per section (its own page), most used first, as Shopify's admin lists its settings. */
export function SettingsIndex() {
  return (
    <Layout>
      <Layout.Section>
        <Card padding="0">
          <nav aria-label="Settings sections">
            <Rows label="Sections" rows={SETTINGS_SECTIONS.map((s) => ({ url: `/app/settings/${s.id}`, title: s.title, summary: s.summary }))} />
          </nav>
        </Card>
      </Layout.Section>
      <Layout.Section>
        <BlockStack gap="200">
          <Text as="h2" variant="headingSm">
            On other pages
          </Text>
          <Card padding="0">
            <Rows label="On other pages" rows={ELSEWHERE} />
          </Card>
        </BlockStack>
      </Layout.Section>
    </Layout>
  );
}
