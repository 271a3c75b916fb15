import { errorAnswer, hostedPage, responseOf, type JsonAnswer } from "~/http/responses.server";

/**
 * The storefront API's one table from a refused outcome (a domain's `code`) to its HTTP answer:
 * status and the sentence in `error`. Address correction words a few of the shared codes for its own
 * case (the order's phone rather than the shopper's); those sentences stand in the `correction` column.
 */
const OUTCOMES = {
  invalid_phone: { status: 400, error: "Enter the phone number in international format: + and 10 to 15 digits.", correction: "The phone number must be in E.164 form: + and 10 to 15 digits." },
  rate_limited: { status: 429, error: "Too many codes were requested for this number. Try again later.", correction: "Too many correction requests for this order or number; try again later." },
  shop_daily_cap: { status: 429, error: "This shop cannot send more verification codes today." },
  subscription_required: { status: 402, error: "This shop has no active plan; the merchant must approve one in the app.", correction: "The shop has no active subscription; a plan must be approved in the app." },
  plan_limit_reached: { status: 402, error: "This shop has used its plan's verifications for this month; the merchant can choose a larger plan in the app." },
  country_not_allowed: { status: 403, error: "This shop does not send codes to numbers from this country." },
  phone_blocked: { status: 403, error: "This shop does not send codes to this number." },
  phone_unreachable: { status: 400, error: "This number cannot receive text messages. Check it, or use a mobile number.", correction: "The SMS provider cannot reach the order's phone number." },
  sms_unavailable: { status: 502, error: "The code could not be sent right now. Try again in a moment.", correction: "The SMS provider is unavailable; try again shortly." },
  invalid_code: { status: 400, error: "That code is not right." },
  attempts_exhausted: { status: 429, error: "Too many wrong codes. Request a new code." },
  code_expired: { status: 400, error: "This code has expired or was already used. Request a new code." },
  already_verified: { status: 409, error: "This code was already used to verify this number: it is verified." },
  cod_not_allowed: { status: 403, error: "Cash on delivery is not available for this order. You can pay now instead." },
  phone_not_verified: { status: 403, error: "Verify this phone number with the code we send before paying on delivery." },
  order_not_found: { status: 404, error: "No open order matches this order id or phone." },
  order_not_editable: { status: 409, error: "The order is fulfilled, cancelled or closed; its address can no longer change." },
  order_has_no_phone: { status: 422, error: "The order has no phone number to send the link to." },
  shopify_unavailable: { status: 502, error: "Shopify did not answer; try again shortly." },
} satisfies Record<string, { status: number; error: string; correction?: string }>;

export type OutcomeCode = keyof typeof OUTCOMES;

/**
 * The JSON error answer of `code`: `{ error, code, ...extra }` with the table's status. `retryAfter`
 * (seconds) goes into the body and the Retry-After header.
 */
export function outcomeResponse(
  code: OutcomeCode,
  options: { extra?: Record<string, unknown>; retryAfter?: number; wording?: "correction" } = {},
): Response {
  return responseOf(outcomeAnswer(code, options));
}

/** `outcomeResponse` before it is a Response (the storefront's JSON routes answer with these). */
export function outcomeAnswer(
  code: OutcomeCode,
  options: { extra?: Record<string, unknown>; retryAfter?: number; wording?: "correction" } = {},
): JsonAnswer {
  const entry: { status: number; error: string; correction?: string } = OUTCOMES[code];
  const error = (options.wording === "correction" && entry.correction) || entry.error;
  if (options.retryAfter === undefined) return errorAnswer(entry.status, code, error, options.extra ?? {});
  return errorAnswer(entry.status, code, error, { ...options.extra, retryAfter: options.retryAfter }, { "Retry-After": String(options.retryAfter) });
}

/**
 * The hosted pages' table (the address form under /ac/:token, the order confirmation under /vc/:token):
 * a page outcome's HTTP status. The page itself is the domain's rendering of the outcome, in the
 * shopper's language; the status says the same as the JSON API would.
 */
const PAGE_OUTCOMES = {
  page: 200, // the page asked for: a form, the code step, a confirmation
  invalid: 422, // the form again, with what was wrong
  not_editable: 409,
  gone: 410, // used, expired, closed
  not_found: 404,
  bad_form: 400, // a POST that is not a URL-encoded form
  form_too_large: 413,
  forged: 403, // a POST without the page's nonce
  rate_limited: 429,
  attempts_exhausted: 429,
  unreachable: 400,
  code_expired: 400,
  unavailable: 503, // Shopify or the SMS provider did not answer: the page says to try again
} satisfies Record<string, number>;

export type PageOutcome = keyof typeof PAGE_OUTCOMES;

export function pageOutcomeResponse(outcome: PageOutcome, html: string): Response {
  return hostedPage(html, PAGE_OUTCOMES[outcome]);
}
