import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "@remix-run/react";

/** Shopify's App Bridge, from its CDN (what the library's AppProvider would load). */
export const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

export default function App() {
  // The embedded admin's pages (app/routes/app.tsx) load App Bridge in the document's head, first, where
  // Shopify's Web Vitals collection needs it; the provider there adds no second copy.
  const admin = useRouteLoaderData<{ apiKey: string; embedded: boolean }>("routes/app");
  return (
    <html lang="en">
      <head>
        {admin?.embedded && <script src={APP_BRIDGE_URL} data-api-key={admin.apiKey} />}
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <link rel="preconnect" href="https://cdn.shopify.com/" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
