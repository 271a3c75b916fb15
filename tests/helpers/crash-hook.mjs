// Test-only: loaded into a test's server by `node --import` (tests/server/process-faults.test.ts),
// never by the app, `npm start` or the build. On SIGUSR2 it throws an exception nothing catches, as
// a bug in a stream callback or a timer would: while a request is in flight (Node's public
// `http.server.request.start` / `http.server.response.finish` diagnostics channels), so that a loaded
// machine, slow to read the test's request, cannot make the exception land before it.
import diagnostics from "node:diagnostics_channel";

let inFlight = 0;
let armed = false;
const crash = () => setImmediate(() => {
  throw new Error("test-only uncaught exception");
});
diagnostics.subscribe("http.server.request.start", () => {
  inFlight++;
  if (armed) {
    armed = false;
    crash();
  }
});
diagnostics.subscribe("http.server.response.finish", () => {
  inFlight--;
});
process.on("SIGUSR2", () => {
  if (inFlight > 0) crash();
  else armed = true;
});
