/**
 * The requests this process is answering right now. The server's handler counts every request that reaches
 * the app (app/server/resource-routes.mjs, through the build's `requestStarted` and `requestFinished`), and the
 * job worker gives way to them (app/core/jobs/worker.server.ts): background work waits for a moment with no
 * request in flight and none answered in the last 20 ms (the gap between two requests of a burst is no pause),
 * for at most three seconds per claim, so a burst of deliveries or shoppers is answered first.
 */
let answering = 0;
let lastFinishedAt = Number.NEGATIVE_INFINITY;

export function requestStarted(): void {
  answering++;
}

export function requestFinished(): void {
  if (answering > 0) answering--;
  lastFinishedAt = performance.now();
}

/** Milliseconds since a request was last answered (Infinity: none yet), on the monotonic clock. */
export function sinceLastAnswerMs(): number {
  return performance.now() - lastFinishedAt;
}

export function requestsInFlight(): number {
  return answering;
}
