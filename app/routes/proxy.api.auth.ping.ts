import { databaseIsUp } from "~/db.server";
import { json } from "~/http/responses.server";

/** GET /proxy/api/auth/ping: public health check. 200 when the database answers, 503 when not. */
export async function loader() {
  return (await databaseIsUp()) ? json({ status: "ok" }) : json({ status: "unavailable" }, 503);
}
