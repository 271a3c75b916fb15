import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";

/** Shopify opens the app at its URL with ?shop=...; send that into the embedded admin. */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  return null;
}

export default function Index() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 640, margin: "4rem auto", padding: "0 1rem" }}>
      <h1>COD Verify</h1>
      <p>
        Verifies cash-on-delivery shoppers with a one-time code, builds the checkout for the mode they pick, and tags
        their orders. Install it from the Shopify App Store or your Partner Dashboard.
      </p>
    </main>
  );
}
