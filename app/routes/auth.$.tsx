import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/core/shopify/app.server";

/** OAuth begin/callback and the embedded-app bounce, handled by the library. */
export async function loader({ request }: LoaderFunctionArgs) {
  await authenticate.admin(request);
  return null;
}
