import * as home from "~/routes/app._index";
import * as createCheckout from "~/routes/proxy.create-checkout";
import { prisma } from "~/core/db.server";
import { PROBE_MIN_SENDS, shareLimit } from "~/otp/send-limits.server";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { answerKind, attackerIp, attackerNumber, docTable, printTable, sendFrom } from "../helpers/attacks";
import { useFakeShopify } from "../helpers/fake-shopify";
import * as handlers from "../mocks/shopify/handlers";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * Probing the holdout experiment (docs/experiment.md, "What someone who probes can and cannot do"): a
 * prober types number after number to find one that is not asked for a code. The arm is drawn only after
 * every limit the send passes and the send stays counted, so each answer costs what a code costs; a
 * refused request tells nothing; a network that asks many numbers and confirms few gets no arm at all
 * (its numbers are asked, counted apart); the merchant reads it on Home. The experiment's id is fixed, so
 * the arms (a keyed hash of it and the number) and the measured table are the same on every run.
 */
const twilio = useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));

async function startExperiment(shopId: string, holdoutShare = 0.1) {
  await prisma.experiment.create({
    data: { id: "probe-exp-1", shopId, runningShopId: shopId, holdoutShare, startedAt: new Date(Date.now() - 60_000), horizon: 1000, baseline: 0.2, drop: 0.1 },
  });
}

type Probe = { probes: number; heldOutFound: number; refused: number; codes: number };

/** `networks` /24s, each probing new numbers from one address until refused; counts what the answers told. */
async function probe(networks: number, first = 0): Promise<Probe> {
  const out: Probe = { probes: 0, heldOutFound: 0, refused: 0, codes: 0 };
  let next = first;
  for (let n = 0; n < networks; n++) {
    for (;;) {
      out.probes++;
      const kind = answerKind(await sendFrom(attackerNumber(next++), attackerIp(n)));
      if (kind === "refused") {
        out.refused++;
        break;
      }
      if (kind === "no_code") out.heldOutFound++;
      else out.codes++;
    }
  }
  return out;
}

const probeRow = (who: string, p: Probe) =>
  `| ${who} | ${p.probes} | ${p.codes} | ${p.heldOutFound} | ${p.heldOutFound ? Math.round(p.probes / p.heldOutFound) : "none found"} |`;

const rows: string[] = [];
/** A few hundred requests through the routes: more than a unit test's time on a busy machine. */
const PROBE = 180_000;

describe("probing the holdout experiment", () => {
  it("one IP: every answer is a counted send, and once its share is spent every answer is the same refusal", async () => {
    const shop = await installShop();
    await startExperiment(shop.id);
    const p = await probe(1);
    rows.push(probeRow("one IP", p));
    // Held out or sent, each answer took one of the IP's 20 a day; then 429 for every number, whatever its arm.
    expect(p.codes + p.heldOutFound).toBe(shareLimit("ip", 1000));
    const after = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => sendFrom(attackerNumber(5000 + i), attackerIp(0))));
    expect(after.map((a) => [a.status, a.body.code])).toEqual(Array(6).fill([429, "rate_limited"]));
    // Only the network's first numbers could be held out: from its 10th number on, it probes.
    const arms = await prisma.experimentAssignment.findMany({ orderBy: { assignedAt: "asc" } });
    expect(arms.slice(PROBE_MIN_SENDS - 1).every((a) => a.arm === "probe")).toBe(true);
    expect(arms.filter((a) => a.arm === "holdout")).toHaveLength(p.heldOutFound);
  }, PROBE);

  it("20 networks: held-out numbers found only among each network's first numbers; Home says numbers were kept out", async () => {
    const shop = await installShop();
    await startExperiment(shop.id);
    const p = await probe(20);
    rows.push(probeRow("20 networks", p));
    const arms = await prisma.experimentAssignment.groupBy({ by: ["arm"], _count: true });
    const count = (arm: string) => arms.find((a) => a.arm === arm)?._count ?? 0;
    // Every answer was a counted send (an arm recorded), and no network found a held-out number past its 9th.
    expect(count("probe") + count("holdout") + count("verify")).toBe(p.codes + p.heldOutFound);
    expect(count("holdout")).toBe(p.heldOutFound);
    expect(count("probe")).toBeGreaterThan(0);
    // The first 100 codes of the day unconfirmed made it a drain too: the later networks got 2 codes each before their refusal.
    expect(p.probes).toBeLessThan(20 * (shareLimit("ip", 1000) + 1));
    const page = await callAdminRoute<{ experiment: { sentence: string } }>(home, await adminRequest("/app"));
    expect(page.data!.experiment.sentence).toContain(`${count("probe")} numbers were asked from networks that tried many numbers and confirmed few (a probe)`);
  }, PROBE);

  it("a number the probe found held out pays COD unverified, as any held-out shopper: the find is real, its price is a code's", async () => {
    const shop = await installShop();
    await startExperiment(shop.id, 0.3);
    let found: string | null = null;
    for (let i = 0; i < PROBE_MIN_SENDS - 1 && !found; i++) {
      const answer = await sendFrom(attackerNumber(i), attackerIp(0));
      if (answerKind(answer) === "no_code") found = attackerNumber(i);
    }
    expect(found).not.toBeNull();
    const res = await callRoute(createCheckout, signedRequest("/create-checkout", { method: "POST", body: { variantId: "1", selectedMode: "cod", phone: found } }));
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toHaveProperty("checkoutUrl");
    expect(twilio.twilio.messages.map((m) => m.to)).not.toContain(found);
  });

  it("docs/experiment.md's probe table is this output, row for row", () => {
    printTable(rows);
    expect(rows).toHaveLength(2);
    expect(docTable("experiment.md", "| prober |")).toEqual(rows);
  });
});
