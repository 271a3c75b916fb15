import { log } from "~/core/utils/log.server";

/**
 * One warning per database outage, not one line per request or job (docs/deploy.md, "Logs"): the first
 * failure that finds the database unavailable logs `warn`; the ones after it, until the database
 * answers again, log `debug` only. The outage ends when a caller says the database answered (the job
 * worker's sweep, every few seconds in every instance), or after QUIET_MS without a failure (a
 * process that runs no worker), and its end is one `info` line with how long it lasted and how many
 * failures were not logged.
 */
const QUIET_MS = 60_000;
let outage: { since: number; last: number; more: number } | null = null;

export function noteDatabaseUnavailable(message: string, fields: Record<string, unknown> = {}, now = Date.now()): void {
  if (outage && now - outage.last > QUIET_MS) outage = null;
  if (outage) {
    outage.more++;
    outage.last = now;
    log.debug(message, fields);
    return;
  }
  outage = { since: now, last: now, more: 0 };
  log.warn(message, fields);
}

/**
 * The database answered work that began at `askedAt` (the job worker's sweep): the outage is over, unless
 * that work began before the outage was seen (a sweep whose statements all ran before the cut proves
 * nothing about now, and ending the outage on it would log a second warning for the same cut).
 */
export function noteDatabaseAnswered(askedAt: number, now = Date.now()): void {
  if (!outage || askedAt < outage.last) return;
  log.info("database reachable again", { downForMs: now - outage.since, failuresNotLogged: outage.more });
  outage = null;
}
