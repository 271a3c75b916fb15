#!/usr/bin/env node
// `npm run jobs`: the background jobs of DATABASE_URL in one place: how many of each kind are due,
// running, done and failed, then the failed and retrying ones with their last error.
//   npm run jobs [-- --shop <domain>] [--limit 20]
import "../app/server/load-env.mjs";
import { parseArgs } from "node:util";
import { resolveDatabaseUrl } from "../prisma/migrate.mjs";
import { clientFor } from "./lib/prisma-client.mjs";

const { values } = parseArgs({ options: { shop: { type: "string" }, limit: { type: "string", default: "20" } } });
const prisma = await clientFor(resolveDatabaseUrl(process.env.DATABASE_URL));
try {
  const now = new Date();
  const where = values.shop ? { shop: values.shop } : {};
  const jobs = await prisma.job.findMany({
    where,
    select: { kind: true, doneAt: true, failedAt: true, lockedUntil: true, attempts: true },
  });
  const counts = new Map();
  for (const j of jobs) {
    const state = j.doneAt ? "done" : j.failedAt ? "failed" : j.lockedUntil && j.lockedUntil > now ? "running" : j.attempts ? "retrying" : "queued";
    const row = counts.get(j.kind) ?? { kind: j.kind, queued: 0, running: 0, retrying: 0, done: 0, failed: 0 };
    row[state]++;
    counts.set(j.kind, row);
  }
  console.log(counts.size ? "jobs by kind and state:" : "no jobs");
  if (counts.size) console.table([...counts.values()]);
  const troubled = await prisma.job.findMany({
    where: { ...where, doneAt: null, OR: [{ failedAt: { not: null } }, { attempts: { gt: 0 } }] },
    orderBy: { updatedAt: "desc" },
    take: Number(values.limit),
    select: { kind: true, shop: true, key: true, attempts: true, nextAttemptAt: true, failedAt: true, lastError: true },
  });
  if (troubled.length) {
    console.log("failed or retrying (newest first):");
    console.table(troubled.map((j) => ({ ...j, nextAttemptAt: j.failedAt ? "-" : j.nextAttemptAt.toISOString(), failedAt: j.failedAt?.toISOString() ?? "-", lastError: j.lastError?.slice(0, 80) ?? "" })));
  }
} finally {
  await prisma.$disconnect();
}
