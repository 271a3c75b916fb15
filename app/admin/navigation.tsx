import { Link, useLocation } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import { Box, InlineStack } from "@shopify/polaris";
import { useAppBridgeState } from "./app-bridge";

/** The admin's pages, in the order the merchant sees them (Deliveries holds its analytics as a second tab). */
export const ADMIN_PAGES = [
  { url: "/app", label: "Home" },
  { url: "/app/orders", label: "Orders" },
  { url: "/app/needs-a-person", label: "Needs a person" },
  { url: "/app/blocklist", label: "Blocked numbers" },
  { url: "/app/risk", label: "Risk" },
  { url: "/app/deliveries", label: "Deliveries" },
  { url: "/app/settings", label: "Settings" },
  { url: "/app/plans", label: "Plans" },
  { url: "/app/data-requests", label: "Data requests" },
] as const;

function isCurrent(pathname: string, url: string): boolean {
  return url === "/app" ? pathname === "/app" || pathname === "/app/" : pathname === url || pathname.startsWith(`${url}/`);
}

/**
 * App Bridge's navigation menu (drawn by Shopify beside the app; its first link is the app's home and is
 * not listed) and, when App Bridge is absent, the same links as a bar at the top of the page.
 */
export function AdminNavigation() {
  const appBridge = useAppBridgeState();
  const { pathname } = useLocation();
  return (
    <>
      <NavMenu>
        {ADMIN_PAGES.map((page, i) => (
          <Link key={page.url} to={page.url} rel={i === 0 ? "home" : undefined}>
            {page.label}
          </Link>
        ))}
      </NavMenu>
      {appBridge === "absent" && (
        <Box background="bg-surface" borderBlockEndWidth="025" borderColor="border" paddingInline="400" paddingBlock="200">
          <nav aria-label="COD Verify">
            <InlineStack gap="100" wrap>
              {ADMIN_PAGES.map((page) => {
                const current = isCurrent(pathname, page.url);
                return (
                  <Link key={page.url} to={page.url} prefetch="intent" aria-current={current ? "page" : undefined} className={current ? "admin-nav-link admin-nav-link--current" : "admin-nav-link"}>
                    {page.label}
                  </Link>
                );
              })}
            </InlineStack>
          </nav>
        </Box>
      )}
    </>
  );
}
