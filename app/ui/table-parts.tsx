import { BlockStack, Button, InlineStack, Text } from "@shopify/polaris";
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
        {/* Not Polaris' Pagination: its unavailable side is a link without an address that keeps its
            aria-label, which assistive technology cannot use (axe: aria-prohibited-attr). Here it is a
            disabled button, and each side says its page. */}
        {pages > 1 && (
          <nav aria-label="Pages">
            <InlineStack gap="200">
              <PageLink to={page > 1 ? pageUrl(page - 1) : null} label={`Previous page, ${page - 1} of ${pages}`}>
                Previous
              </PageLink>
              <PageLink to={page < pages ? pageUrl(page + 1) : null} label={`Next page, ${page + 1} of ${pages}`}>
                Next
              </PageLink>
            </InlineStack>
          </nav>
        )}
      </InlineStack>
    </div>
  );
}

function PageLink({ to, label, children }: { to: string | null; label: string; children: string }) {
  return to ? (
    <Button url={to} accessibilityLabel={label}>
      {children}
    </Button>
  ) : (
    <Button disabled>{children}</Button>
  );
}
