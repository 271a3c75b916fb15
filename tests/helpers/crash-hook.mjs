// Test-only: loaded into a test's server by `node --import` (tests/server/process-faults.test.ts),
// never by the app, `npm start` or the build. On SIGUSR2 it throws an exception nothing catches, as
// a bug in a stream callback or a timer would.
process.on("SIGUSR2", () => {
  setImmediate(() => {
    throw new Error("test-only uncaught exception");
  });
});
