import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Outlet, useLoaderData, useRouteError, type ShouldRevalidateFunction } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import adminStyles from "~/admin/admin.css";
import { AppBridgeStateProvider } from "~/admin/app-bridge";
import { AdminNavigation } from "~/admin/navigation";
import { AdminUnavailable } from "~/ui/unavailable";
import { adminStandIn } from "#admin-access";
import { authenticate } from "~/core/shopify/app.server";
import { env } from "~/core/env.server";
import { verificationNotice } from "~/enforcement/admin-notice.server";

export const links = () => [
  { rel: "stylesheet", href: polarisStyles },
  { rel: "stylesheet", href: adminStyles },
];

export const meta: MetaFunction = () => [{ title: "COD Verify" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  // A local development server has no Shopify admin around it: App Bridge would send the browser to
  // admin.shopify.com, so the pages run without it (as they must when its script cannot load).
  const embedded = !adminStandIn();
  return {
    apiKey: env.SHOPIFY_API_KEY,
    embedded,
    appBridgeExpected: embedded && new URL(request.url).searchParams.get("embedded") === "1",
    // The banner every page shows while verification is paused or nearly (app/admin/verification-banner.tsx).
    verificationNotice: await verificationNotice(session.shop),
  };
}

/**
 * Read again on every move to another admin page, not only after a form was posted: the banner says
 * whether verification is paused, which a webhook, a job or the month's count can change at any time,
 * and Remix would otherwise keep the layout's first answer for as long as the merchant stays in the app.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  defaultShouldRevalidate || currentUrl.pathname !== nextUrl.pathname;

export default function App() {
  const { apiKey, appBridgeExpected } = useLoaderData<typeof loader>();
  return (
    // App Bridge's script is in the document's head (app/root.tsx, where Shopify's Web Vitals collection
    // needs it): `isEmbeddedApp` only decides whether the provider adds its own copy, so it adds none.
    <AppProvider isEmbeddedApp={false} apiKey={apiKey}>
      <AppBridgeStateProvider expected={appBridgeExpected}>
        <AdminNavigation />
        <Outlet />
      </AppBridgeStateProvider>
    </AppProvider>
  );
}

// Shopify needs Remix to catch some thrown responses, so that their headers are included in the response.
// The database unavailable (authenticate.admin throws 503, app/core/shopify/app.server.ts): the admin's error state.
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 503) return <AdminUnavailable />;
  return boundary.error(error);
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
