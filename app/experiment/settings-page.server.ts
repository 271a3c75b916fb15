import { adminShop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import type { ShopZone } from "~/shared/shop-day";
import { loadExperimentReport } from "./report.server";
import { dayWords, experimentSentence } from "./report";
import { PACE_DAYS, planningRates, startExperiment, stopExperiment } from "./experiment.server";
import type { ExperimentPace } from "./reach";
import { HOLDOUT_SHARE, parseExperimentForm, type ExperimentFormErrors } from "./settings";
import { plannedOrders } from "./stats";

/** How the page counts the store's COD orders of its last PACE_DAYS days (the route passes the dashboard's, read from its day rollup). */
export type CodOrdersLately = (shop: ShopZone, now: Date) => Promise<number>;

/** The store's pace and the orders a result needs at each share the card allows (ExperimentCard says whether a choice can get there). */
async function experimentPace(shop: ShopZone, codOrdersLately: CodOrdersLately): Promise<ExperimentPace> {
  const [{ baseline, drop }, codOrders] = await Promise.all([planningRates(shop.id), codOrdersLately(shop, clock.now())]);
  const horizons: Record<number, number> = {};
  for (let p = HOLDOUT_SHARE.min; p <= HOLDOUT_SHARE.max; p++) horizons[p] = plannedOrders({ baseline, drop, holdoutShare: p / 100 });
  return { codOrders, paceDays: PACE_DAYS, horizons };
}

/** What the Settings page's "Holdout experiment" card shows. */
export async function loadExperimentSettings(domain: string, codOrdersLately: CodOrdersLately) {
  const shop = await adminShop(domain);
  const report = await loadExperimentReport(shop);
  return {
    running: report?.running ?? false,
    startedAt: report?.startedAt ?? null,
    endsAt: report?.endsAt ?? null,
    // The shop's first and last days (the last the one before the end's midnight), in words made here: the browser's zone never moves them.
    dayWords: report ? { first: dayWords(report.days.first), last: report.days.last ? dayWords(report.days.last) : null } : null,
    holdoutPercent: report?.running ? Math.round(report.holdoutShare * 100) : HOLDOUT_SHARE.default,
    horizon: report?.horizon ?? null,
    sentence: report ? experimentSentence(report) : null,
    costsSet: shop.codFailureCost != null,
    currency: shop.currency,
    pace: report?.running ? null : await experimentPace(shop, codOrdersLately),
  };
}

export type ExperimentSettings = Awaited<ReturnType<typeof loadExperimentSettings>>;

export type ExperimentActionResult = { intent: "experiment"; ok: boolean; message: string; errors: ExperimentFormErrors };

/** The page's two buttons: start (share and period) and stop. */
export async function experimentAction(domain: string, form: FormData): Promise<ExperimentActionResult> {
  const parsed = parseExperimentForm(form);
  if (!parsed.ok) return { intent: "experiment", ok: false, message: "Nothing was changed: a field needs a change.", errors: parsed.errors };
  const shop = await adminShop(domain);
  const done = (ok: boolean, message: string): ExperimentActionResult => ({ intent: "experiment", ok, message, errors: {} });
  switch (parsed.data.intent) {
    case "experiment-start": {
      const started = await startExperiment(shop, { holdoutShare: parsed.data.holdoutPercent / 100, days: parsed.data.days }, clock.now());
      if (!started.ok) return done(false, "An experiment is already running: stop it before starting another.");
      return done(true, `Experiment started: ${parsed.data.holdoutPercent} % of shoppers are not asked to verify. A result needs ${started.horizon.toLocaleString("en")} delivered or failed COD orders.`);
    }
    case "experiment-stop":
      return (await stopExperiment(shop.id, clock.now())) ? done(true, "Experiment stopped: every shopper is asked to verify again.") : done(false, "No experiment is running.");
  }
}

/** The report page: the latest experiment and its sentence (null: the shop never ran one). */
export async function loadExperimentReportPage(domain: string) {
  const shop = await adminShop(domain);
  const report = await loadExperimentReport(shop);
  return { report, sentence: report ? experimentSentence(report) : null };
}

/** Home's line: the sentence, when the shop ran an experiment. */
export async function experimentHomeLine(shop: Parameters<typeof loadExperimentReport>[0]): Promise<{ sentence: string; running: boolean } | null> {
  const report = await loadExperimentReport(shop);
  return report && { sentence: experimentSentence(report), running: report.running };
}
