import { jsonError } from "~/http/responses.server";

/** Anything under /proxy that no route serves: a JSON 404, never an HTML page. */
export async function loader() {
  return jsonError(404, "not_found", "No such storefront route.");
}

export async function action() {
  return jsonError(404, "not_found", "No such storefront route.");
}
