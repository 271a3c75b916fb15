import { Link, useLocation } from "@remix-run/react";
import { Box, InlineStack } from "@shopify/polaris";

const TABS = [
  { url: "/app/deliveries", label: "At risk" },
  { url: "/app/deliveries/analytics", label: "Analytics" },
] as const;

/**
 * The two views of Deliveries, one entry in the admin's navigation: the deliveries at risk (with the
 * delivery settings) and where cash on delivery fails. Links, so each view has its address and the
 * browser's back button works.
 */
export function DeliveriesTabs() {
  const { pathname } = useLocation();
  return (
    <Box paddingBlockEnd="400">
      <nav aria-label="Deliveries">
        <InlineStack gap="100" wrap>
          {TABS.map((tab) => {
            const current = pathname === tab.url || pathname === `${tab.url}/`;
            return (
              <Link key={tab.url} to={tab.url} prefetch="intent" aria-current={current ? "page" : undefined} className={current ? "admin-nav-link admin-nav-link--tab admin-nav-link--current" : "admin-nav-link admin-nav-link--tab"}>
                {tab.label}
              </Link>
            );
          })}
        </InlineStack>
      </nav>
    </Box>
  );
}
