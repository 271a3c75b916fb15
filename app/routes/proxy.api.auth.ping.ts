import { readyToServe } from "~/core/db.server";
import { json, methodNotAllowed } from "~/http/responses.server";

/**
 * GET /proxy/api/auth/ping: public health check. 200 when the database answers and has every
 * migration applied, 503 when not (the body says no more than that).
 */
export async function loader() {
  return (await readyToServe()) ? json({ status: "ok" }) : json({ status: "unavailable" }, { status: 503, headers: { "Retry-After": "5" } });
}

/** Read-only: any other method gets the contract's 405. */
export async function action() {
  return methodNotAllowed(["GET"]);
}
