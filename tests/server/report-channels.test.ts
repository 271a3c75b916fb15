import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../setup/databases";
import { prepareDatabase } from "../helpers/server";

const run = promisify(execFile);

/**
 * `npm run report:channels` from outside: the built app (npm test builds it first) against a database of
 * its own: local mode's demo shop after `npm run setup`, a database never migrated, a price table that
 * is not valid, a window that is not a number.
 */
describe("npm run report:channels", () => {
  let dir = "";
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cod-report-channels-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function report(databaseUrl: string, args: string[] = []) {
    try {
      const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, "scripts", "report-channels.mjs"), ...args], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl, LOCAL_MODE: "true", NODE_ENV: "development" },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  it("prints each shop's channels with the cost per verified order, or JSON", async () => {
    const url = `file:${path.join(dir, "app.db")}`;
    await prepareDatabase(url);
    const table = await report(url, ["--days", "7"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("demo-shop.myshopify.com");
    expect(table.stdout).toMatch(/cost per verified order/);
    const json = await report(url, ["--json"]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { currency: string; reports: { shop: string; channels: { channel: string; verifiedOrders: number }[] }[] };
    expect(parsed.currency).toBe("USD");
    expect(parsed.reports.map((r) => [r.shop, r.channels.map((c) => [c.channel, c.verifiedOrders])])).toEqual([
      ["demo-shop.myshopify.com", [["sms", 0], ["whatsapp", 0]]],
    ]);
  }, 60_000);

  it("refuses a database not migrated, a price table that is not valid and a window that is not a number, with exit code 2 and one clear line", async () => {
    const empty = await report(`file:${path.join(dir, "empty.db")}`);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/report:channels: the database \(DATABASE_URL\) is not migrated/);
    const prices = path.join(dir, "prices.json");
    fs.writeFileSync(prices, JSON.stringify({ currency: "USD", asOf: "2026-11", sms: { IN: "cheap" }, whatsapp: { authentication: {}, utility: {} } }));
    const bad = await report(`file:${path.join(dir, "app.db")}`, ["--prices", prices]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/is not valid:\n\s+sms\.IN: /);
    const days = await report(`file:${path.join(dir, "app.db")}`, ["--days", "a month"]);
    expect(days.code).toBe(2);
    expect(days.stderr).toMatch(/--days must be a whole number/);
  }, 60_000);
});
