import { devToolsEnabled, devToolsRefused } from "~/dev/dev-tools.server";
import { cartUpdateSchema, themeCartRequest } from "~/dev/storefront/theme-cart.server";
import { readJsonBody } from "~/http/json-body.server";
import { answer, json, methodNotAllowed } from "~/http/responses.server";

/**
 * POST /cart/update.js { attributes?, note? }: the local storefront's stand-in for Shopify's cart AJAX
 * update; the modal writes the verification proof (`_cod_proof`) onto the theme's cart with it before
 * the store's own checkout. Answers the cart as /cart.js does. Local mode only; a 404 in production.
 */
export async function action({ request }: { request: Request }) {
  if (!devToolsEnabled()) return devToolsRefused();
  return answer(async () => {
    const update = await readJsonBody(request, cartUpdateSchema);
    const { cart, setCookie } = themeCartRequest(request, update);
    return json(cart, { headers: setCookie ? { "Set-Cookie": setCookie } : {} });
  }, "cart/update.js");
}

export async function loader() {
  if (!devToolsEnabled()) return devToolsRefused();
  return methodNotAllowed(["POST"]);
}
