import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticateProxy } from "~/http/app-proxy.server";
import { answer, json, methodNotAllowed } from "~/http/responses.server";

/**
 * GET /proxy/api/config: what the storefront modal needs to render for this shop
 * (whether OTP is on, the code length, the resend cooldown and the shop's language).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    const { shop } = await authenticateProxy(request);
    return json({
      otpEnabled: shop.otpEnabled,
      codeLength: 6,
      resendAfter: shop.otpResendCooldownSeconds,
      locale: shop.locale,
      modes: ["cod", "prepaid", "partial"],
    });
  });
}

/** Read-only: any other method gets the contract's 405. */
export async function action() {
  return methodNotAllowed(["GET"]);
}
