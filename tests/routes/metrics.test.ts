import * as metricsRoute from "~/routes/metrics";
import { metricsText } from "~/core/metrics.server";
import { enqueueJob } from "~/core/jobs/queue.server";
import { orderTagsJob } from "~/orders/tag-jobs.server";
import { clock } from "~/core/utils/clock.server";
import { parsePrometheus, sampleValue } from "../helpers/prometheus";

describe("the metrics the operator scrapes, on this engine", () => {
  it("GET /metrics does not exist while no METRICS_TOKEN is configured", async () => {
    const res = await metricsRoute.loader({ request: new Request("http://app.test/metrics", { headers: { Authorization: "Bearer anything-at-all-0123456789" } }) });
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe("not_found");
  });

  it("reads the jobs queue's depth and the oldest due job's age from the database at scrape time", async () => {
    const now = clock.now();
    await enqueueJob(orderTagsJob, { shop: "metrics-shop.myshopify.com", key: "k-due", payload: orderTagsPayload(), runAt: new Date(now.getTime() - 120_000) });
    await enqueueJob(orderTagsJob, { shop: "metrics-shop.myshopify.com", key: "k-later", payload: orderTagsPayload(), runAt: new Date(now.getTime() + 3_600_000) });
    const samples = parsePrometheus((await metricsText()).text);
    expect(sampleValue(samples, "cod_jobs_pending", { kind: orderTagsJob.kind, state: "due" })).toBe(1);
    expect(sampleValue(samples, "cod_jobs_pending", { kind: orderTagsJob.kind, state: "waiting" })).toBe(1);
    const age = sampleValue(samples, "cod_jobs_oldest_due_age_seconds", { kind: orderTagsJob.kind })!;
    expect(age).toBeGreaterThanOrEqual(119);
    expect(age).toBeLessThan(600);
  });

  it("shows the PostgreSQL pool's connections, and nothing of the kind on SQLite", async () => {
    const samples = parsePrometheus((await metricsText()).text);
    const pool = samples.filter((s) => s.name === "cod_db_pool_connections");
    if (process.env.TEST_DB === "postgres") expect(pool.map((s) => s.labels.state).sort()).toEqual(["busy", "idle", "waiting"]);
    else expect(pool).toEqual([]);
  });
});

function orderTagsPayload() {
  return { orderGid: "gid://shopify/Order/1", tags: ["cod-verified"] };
}
