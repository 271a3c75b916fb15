import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import { authenticate } from "~/shopify/app.server";
import { env } from "~/env.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await authenticate.admin(request);
  return { apiKey: env.SHOPIFY_API_KEY };
}

export default function App() {
  const { apiKey } = useLoaderData<typeof loader>();
  return (
    <>
      {/* What the library's AppProvider renders; its module uses JSON import attributes that the
          classic Remix compiler's esbuild cannot parse, so the two pieces are used directly. */}
      <script src="https://cdn.shopify.com/shopifycloud/app-bridge.js" data-api-key={apiKey} />
      <AppProvider i18n={enTranslations}>
        <Outlet />
      </AppProvider>
    </>
  );
}

// Shopify needs Remix to catch some thrown responses, so that their headers are included in the response.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
