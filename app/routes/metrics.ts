import { env } from "~/core/env.server";
import { metricsAuthorized, metricsText } from "~/core/metrics.server";
import { answer, jsonError, methodNotAllowed } from "~/http/responses.server";

/**
 * GET /metrics: the operator's metrics in Prometheus' text format (docs/deploy.md, "Metrics"), for a
 * scraper that sends `Authorization: Bearer <METRICS_TOKEN>`. 404 `not_found` while no token is
 * configured (the endpoint does not exist then), 401 `unauthorized` with a missing or wrong token.
 */
export async function loader({ request }: { request: Request }) {
  return answer(async () => {
    if (!env.METRICS_TOKEN) return jsonError(404, "not_found", "Nothing is served at this path.");
    if (!metricsAuthorized(request.headers.get("authorization"))) {
      return jsonError(401, "unauthorized", "A valid bearer token is required.", {}, { "WWW-Authenticate": 'Bearer realm="metrics"' });
    }
    const { text, contentType } = await metricsText();
    return new Response(text, { status: 200, headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
  }, "metrics");
}

export async function action() {
  return methodNotAllowed(["GET"]);
}
