import { createHash, timingSafeEqual } from "node:crypto";
import client from "prom-client";
import { driver } from "~/core/db.server";
import { query, sql, toDate } from "~/core/db/sql.server";
import { env } from "~/core/env.server";
import { clock } from "~/core/utils/clock.server";

/**
 * The operator's metrics, in Prometheus' text format through prom-client (the ecosystem's client library),
 * served at GET /metrics behind METRICS_TOKEN (docs/deploy.md: scraping and alerts).
 *
 * Counters and histograms are this process's (a scrape of each instance, summed by Prometheus); the
 * queue's depth and age are read from the database at scrape time, so every instance reports the same
 * shared figures (alert on `max`, not `sum`). Labels are bounded sets: a route's path is one of the
 * app's fixed routes or a coarse area, never a raw URL.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: "cod_" });

const httpRequests = new client.Counter({
  name: "cod_http_requests_total",
  help: "Requests answered, by route, method and status class.",
  labelNames: ["route", "method", "status"] as const,
  registers: [registry],
});
const httpDuration = new client.Histogram({
  name: "cod_http_request_duration_seconds",
  help: "Time to answer a request, by route.",
  labelNames: ["route"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
const webhookLag = new client.Histogram({
  name: "cod_webhook_lag_seconds",
  help: "From Shopify's trigger (X-Shopify-Triggered-At) to the app's answer, by topic.",
  labelNames: ["topic"] as const,
  buckets: [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600],
  registers: [registry],
});
const webhooksAnswered = new client.Counter({
  name: "cod_webhooks_total",
  help: "Webhook deliveries answered, by topic and outcome (done, retry: 503 so Shopify sends it again, refused: 4xx).",
  labelNames: ["topic", "outcome"] as const,
  registers: [registry],
});

type QueueRow = { kind: string; pending: number | bigint; due: number | bigint; oldestDue: unknown };

/** The jobs waiting (not done, not given up), read at scrape time: one grouped read on the pending jobs' partial index. */
async function queueRows(now: Date): Promise<QueueRow[]> {
  return query<QueueRow>(sql`
    SELECT "kind", COUNT(*) AS "pending",
      SUM(CASE WHEN "nextAttemptAt" <= ${now} THEN 1 ELSE 0 END) AS "due",
      MIN(CASE WHEN "nextAttemptAt" <= ${now} THEN "nextAttemptAt" END) AS "oldestDue"
    FROM "Job" WHERE "doneAt" IS NULL AND "failedAt" IS NULL GROUP BY "kind"`);
}

new client.Gauge({
  name: "cod_jobs_pending",
  help: "Background jobs waiting (not done, not given up), by kind; `due` counts those whose time has come.",
  labelNames: ["kind", "state"] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const now = clock.now();
    for (const row of await scrapeQueue(now)) {
      this.set({ kind: row.kind, state: "waiting" }, Number(row.pending) - Number(row.due ?? 0));
      this.set({ kind: row.kind, state: "due" }, Number(row.due ?? 0));
    }
  },
});
new client.Gauge({
  name: "cod_jobs_oldest_due_age_seconds",
  help: "How long the oldest due job has been waiting past its time, by kind (0 when none is due): a worker that stopped shows here first.",
  labelNames: ["kind"] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const now = clock.now();
    for (const row of await scrapeQueue(now)) {
      const oldest = row.oldestDue == null ? null : toDate(row.oldestDue);
      this.set({ kind: row.kind }, oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0);
    }
  },
});
new client.Gauge({
  name: "cod_db_pool_connections",
  help: "PostgreSQL connection pool: open connections by state (idle, busy) and requests waiting for one. Absent on SQLite.",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    if (driver.provider !== "postgresql") return;
    const { totalCount, idleCount, waitingCount } = driver.pool;
    this.set({ state: "idle" }, idleCount);
    this.set({ state: "busy" }, totalCount - idleCount);
    this.set({ state: "waiting" }, waitingCount);
  },
});

/** Both queue gauges read the same rows: one read per scrape, shared while it runs. */
let queueRead: Promise<QueueRow[]> | null = null;
function scrapeQueue(now: Date): Promise<QueueRow[]> {
  queueRead ??= queueRows(now).finally(() => setImmediate(() => (queueRead = null)));
  return queueRead;
}

/** A request the server answered; `route` is already a bounded label (see routeLabel). */
export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  httpRequests.inc({ route, method, status: `${Math.floor(status / 100)}xx` });
  httpDuration.observe({ route }, seconds);
}

/**
 * The label a request is counted under: a fixed route's own path (a short, fixed list), else the path's
 * first segment when it is one of the app's areas, else `other` (probes of random paths add no series).
 */
const AREAS = new Set(["app", "auth", "ac", "vc", "d", "build", "proxy", "webhooks", "twilio", "metrics"]);
export function routeLabel(pathname: string, fixedRoute: boolean): string {
  if (fixedRoute) return pathname;
  const first = pathname.split("/")[1] ?? "";
  return AREAS.has(first) ? `/${first}/*` : pathname === "/" ? "/" : "other";
}

/** A webhook delivery answered: its lag from Shopify's trigger time, when the header says it. */
export function observeWebhook(topic: string, outcome: "done" | "retry" | "refused", triggeredAt: string | null): void {
  webhooksAnswered.inc({ topic, outcome });
  const at = triggeredAt ? Date.parse(triggeredAt) : NaN;
  if (Number.isFinite(at)) webhookLag.observe({ topic }, Math.max(0, (clock.now().getTime() - at) / 1000));
}

/** Whether the request carries the configured token (`Authorization: Bearer …`), compared in constant time. */
export function metricsAuthorized(header: string | null): boolean {
  const token = env.METRICS_TOKEN;
  const given = header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (!token || !given) return false;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}

export async function metricsText(): Promise<{ text: string; contentType: string }> {
  return { text: await registry.metrics(), contentType: registry.contentType };
}
