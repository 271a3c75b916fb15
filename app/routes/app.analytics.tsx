import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { authenticate } from "~/core/shopify/app.server";

/** /app/analytics, where delivery analytics was: now a tab of Deliveries (its query, the period, kept). */
export async function loader({ request }: LoaderFunctionArgs) {
  await authenticate.admin(request);
  return redirect(`/app/deliveries/analytics${new URL(request.url).search}`);
}

/**
 * Never rendered (the loader always redirects). Being a page, not a resource route, keeps the old address
 * under Remix's own handling: a client-side navigation to it gets Remix's data redirect, a full load the 302.
 */
export default function OldAnalyticsAddress() {
  return null;
}
