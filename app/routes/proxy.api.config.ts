import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticateProxy } from "~/http/app-proxy.server";
import { answer, methodNotAllowed } from "~/http/responses.server";
import { revalidatedJson } from "~/http/revalidated-json.server";
import { modalConfig } from "~/storefront/modal-config";

/**
 * GET /proxy/api/config: what the storefront modal needs to render for this shop (app/storefront/modal-config.ts).
 * The same for every shopper of the shop: the browser revalidates it by ETag, compressed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    const { shop } = await authenticateProxy(request);
    return revalidatedJson(request, modalConfig(shop));
  });
}

/** Read-only: any other method gets the contract's 405. */
export async function action() {
  return methodNotAllowed(["GET"]);
}
