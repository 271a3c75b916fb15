import { databaseProvider } from "~/core/db.server";
import { isUniqueViolation, joinSql, query, sql, transaction, type Sql } from "~/core/db/sql.server";
import { jobInsert, type PlannedJob } from "~/core/jobs/queue.server";
import { deliveryRecord, type Delivery } from "~/core/shopify/webhook-deliveries.server";

/**
 * orders/create's writes in one round trip (app/orders/link.server.ts decides them): the selection's claim,
 * the confirmation after purchase and its steps, the order's jobs, its record and the delivery's record.
 *  - PostgreSQL: one statement, each write a data-modifying CTE that runs only if the steps it depends on
 *    did (everything on the claim, the confirmation's steps on its insert).
 *  - SQLite: one `BEGIN IMMEDIATE` transaction of the same statements, the conditions between them in JS.
 * Every write is the statement it was on its own (`INSERT ... ON CONFLICT DO NOTHING`, the conditional
 * claim), so what a redelivery or a concurrent copy finds is what it found before; what it does then (merge
 * a job, schedule the existing confirmation, record the delivery last) is the caller's, after this.
 */
export type OrderWrites = {
  now: Date;
  /** The selection's claim (`UPDATE ... WHERE "orderGid" IS NULL`); when it changes nothing, nothing else is written. */
  claim: Sql | null;
  /** The confirmation's insert (`... ON CONFLICT DO NOTHING RETURNING "id"`) and the jobs of its steps, queued only if it was inserted. */
  confirmation: { insert: (source?: Sql) => Sql; jobs: PlannedJob[] } | null;
  /** The order's tags job: with the confirmation's tags when this delivery opened it, without otherwise (null: no tags). */
  tags: { ifOpened: PlannedJob | null; otherwise: PlannedJob | null };
  jobs: PlannedJob[];
  record: (source?: Sql) => Sql;
  delivery: Delivery;
};

export type OrderWritten = {
  /** False: the claim changed nothing (another delivery linked it first) and nothing was written. */
  claimed: boolean;
  opened: boolean;
  /** The jobs whose insert found their key queued already (for `afterJobFound`). */
  found: PlannedJob[];
  /** The delivery was recorded: nothing was left for the caller (no confirmation found, no job to merge). */
  delivered: boolean;
};

const NOT_CLAIMED: OrderWritten = { claimed: false, opened: false, found: [], delivered: false };

/** The jobs this delivery means to queue, given whether it opened the confirmation: the tags job first. */
function jobsToQueue(w: OrderWrites, opened: boolean): PlannedJob[] {
  const tags = w.confirmation && opened ? w.tags.ifOpened : w.tags.otherwise;
  return [...(tags ? [tags] : []), ...(opened && w.confirmation ? w.confirmation.jobs : []), ...w.jobs];
}

/** The delivery is recorded with the rest only when nothing is left to do after it. */
function nothingLeft(w: OrderWrites, opened: boolean, found: PlannedJob[]): boolean {
  return (!w.confirmation || opened) && !found.some((job) => job.kind.merge);
}

export async function writeOrderCreated(w: OrderWrites): Promise<OrderWritten> {
  if (databaseProvider === "postgresql") return writeOnPostgres(w);
  const confirmation = w.confirmation?.insert();
  return transaction((tx) => {
    if (w.claim) {
      try {
        if (tx.execute(w.claim) !== 1) return NOT_CLAIMED;
      } catch (error) {
        if (isUniqueViolation(error)) return NOT_CLAIMED; // orderGid already on another selection
        throw error;
      }
    }
    const opened = confirmation ? tx.query<{ id: string }>(confirmation).length > 0 : false;
    // Only the jobs of what happened (the confirmation opened or not) are built and inserted.
    const found = jobsToQueue(w, opened).filter((job) => !tx.query(jobInsert(job, w.now)).length);
    tx.execute(w.record());
    const delivered = nothingLeft(w, opened, found);
    if (delivered) tx.execute(deliveryRecord(w.delivery));
    return { claimed: true, opened, found, delivered };
  });
}

async function writeOnPostgres(w: OrderWrites): Promise<OrderWritten> {
  const gate = w.claim ? sql`FROM "claimed"` : undefined;
  const ctes: Sql[] = [];
  const flags: Sql[] = [];
  if (w.claim) ctes.push(sql`"claimed" AS (${w.claim} RETURNING "id")`);
  if (w.confirmation) ctes.push(sql`"opened" AS (${w.confirmation.insert(gate)})`);
  // Each job a CTE of its own ("j0", "j1", ...): those of the confirmation's steps only if it was opened.
  type Step = { job: PlannedJob; name: string; when: "always" | "opened" | "notOpened" };
  const steps: Step[] = [];
  const add = (job: PlannedJob | null, when: Step["when"]) => job && steps.push({ job, name: `j${steps.length}`, when });
  if (w.confirmation) {
    add(w.tags.ifOpened, "opened");
    add(w.tags.otherwise, "notOpened");
    for (const job of w.confirmation.jobs) add(job, "opened");
  } else add(w.tags.otherwise, "always");
  for (const job of w.jobs) add(job, "always");
  for (const step of steps) {
    const source =
      step.when === "opened" ? sql`FROM "opened"` : step.when === "notOpened" ? sql`${gate ?? sql``} WHERE NOT EXISTS (SELECT 1 FROM "opened")` : gate;
    ctes.push(sql([`"${step.name}" AS (`, ")"], jobInsert(step.job, w.now, source)));
    flags.push(sql([`EXISTS (SELECT 1 FROM "${step.name}") AS "${step.name}"`]));
  }
  ctes.push(sql`"record" AS (${w.record(gate)})`);
  // The delivery's record, only when nothing is left for the caller: the confirmation inserted (not found),
  // and every job of a kind that merges inserted (not found).
  const conditions: Sql[] = [];
  if (w.confirmation) conditions.push(sql`EXISTS (SELECT 1 FROM "opened")`);
  for (const step of steps) if (step.job.kind.merge && step.when !== "notOpened") conditions.push(sql([`EXISTS (SELECT 1 FROM "${step.name}")`]));
  const deliverySource = conditions.length ? sql`${gate ?? sql``} WHERE ${joinSql(conditions, " AND ")}` : gate;
  ctes.push(sql`"delivered" AS (${deliveryRecord(w.delivery, deliverySource)})`);
  const statement = sql`WITH ${joinSql(ctes, ", ")}
    SELECT ${w.claim ? sql`EXISTS (SELECT 1 FROM "claimed")` : sql`true`} AS "claimed",
      ${w.confirmation ? sql`EXISTS (SELECT 1 FROM "opened")` : sql`false`} AS "opened"
      ${flags.length ? sql`, ${joinSql(flags, ", ")}` : sql``}`;
  let row: Record<string, boolean>;
  try {
    [row] = await query<Record<string, boolean>>(statement);
  } catch (error) {
    if (w.claim && isUniqueViolation(error)) return NOT_CLAIMED; // orderGid already on another selection: nothing was written
    throw error;
  }
  if (!row.claimed) return NOT_CLAIMED;
  const opened = row.opened;
  const found = steps.filter((s) => (s.when === "always" || (s.when === "opened") === opened) && !row[s.name]).map((s) => s.job);
  return { claimed: true, opened, found, delivered: nothingLeft(w, opened, found) };
}
