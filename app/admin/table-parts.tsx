import { BlockStack, InlineStack, Pagination, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

/** What a table shows before it has any row: a heading and one line on what will appear there. */
export function TableEmpty({ title, text }: { title: string; text: string }) {
  return (
    <div style={{ padding: "var(--p-space-800) var(--p-space-400)", textAlign: "center" }}>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        <Text as="p" tone="subdued">
          {text}
        </Text>
      </BlockStack>
    </div>
  );
}

/** Under a table: how many rows in all, and the pages when there is more than one. */
export function TableFooter({ count, page, pages, pageUrl }: { count: ReactNode; page: number; pages: number; pageUrl: (n: number) => string }) {
  return (
    <div style={{ padding: "var(--p-space-300) var(--p-space-400)" }}>
      <InlineStack align="space-between" blockAlign="center">
        <Text as="p" tone="subdued">
          {count}
          {pages > 1 ? ` · page ${page} of ${pages}` : ""}
        </Text>
        {pages > 1 && (
          <Pagination hasPrevious={page > 1} previousURL={pageUrl(page - 1)} hasNext={page < pages} nextURL={pageUrl(page + 1)} label={`Page ${page} of ${pages}`} />
        )}
      </InlineStack>
    </div>
  );
}
