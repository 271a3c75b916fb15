/**
 * The requests this process is answering right now. The server's handler counts every request that reaches
 * the app (app/server/resource-routes.mjs, through the build's `requestStarted` and `requestFinished`), and the
 * job worker gives way to them (app/core/jobs/worker.server.ts): background work waits for a moment with no
 * request in flight, for at most three seconds per claim, so a burst of deliveries or shoppers is answered first.
 */
let answering = 0;

export function requestStarted(): void {
  answering++;
}

export function requestFinished(): void {
  if (answering > 0) answering--;
}

export function requestsInFlight(): number {
  return answering;
}
