// Test-only: loaded into a test's server by `node --import` (tests/helpers/server.ts REQUEST_PROBE), never by the
// app, `npm start` or the build. Prints one line when the server has received a request's head (Node's
// public `http.server.request.start` diagnostics channel), so a test signals the process only once its
// request is in flight, however slowly a loaded machine reads it.
import diagnostics from "node:diagnostics_channel";

diagnostics.subscribe("http.server.request.start", ({ request }) => {
  console.log(JSON.stringify({ probe: "request-start", url: request.url.split("?")[0] }));
});
