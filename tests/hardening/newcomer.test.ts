import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { loadDotEnv } from "../../app/server/load-env.mjs";
import { startServer, type RunningServer } from "../helpers/server";
import { ROOT } from "../setup/databases";

describe("a newcomer's .env copied from .env.example", () => {
  const example = path.join(ROOT, ".env.example");

  it("leaves every empty variable unset, so each one takes its default", () => {
    const target: Record<string, string | undefined> = {};
    loadDotEnv(example, target);
    expect(target.SHOPIFY_API_SECRET).toBeUndefined();
    expect(target.PORT).toBe("3000");
    for (const [key, value] of Object.entries(target)) expect(value, key).not.toBe("");
  });

  it("names every variable the app, the scripts and the tests read", () => {
    const names = Object.keys(parseEnv(fs.readFileSync(example, "utf8")));
    for (const name of ["SHOPIFY_API_ORIGIN", "SHUTDOWN_GRACE_MS", "APP_URL", "DEMO_SHOP", "TEST_POSTGRES_URL", "CHROMIUM_PATH", "SHOP_CUSTOM_DOMAIN"]) {
      expect(names, name).toContain(name);
    }
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme).toMatch(/`SHOP_CUSTOM_DOMAIN`/);
  });

  describe("against the running app", () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("npm run proxy signs with the local secret when SHOPIFY_API_SECRET is empty, as .env.example leaves it", () => {
      const fromExample = parseEnv(fs.readFileSync(example, "utf8"));
      const run = spawnSync(process.execPath, [path.join(ROOT, "scripts", "proxy.mjs"), "GET", "/api/config"], {
        cwd: ROOT,
        env: { ...process.env, ...fromExample, APP_URL: server.url, NODE_ENV: "development" },
        encoding: "utf8",
      });
      expect(run.stdout).toMatch(/^HTTP 200/);
      expect(run.status).toBe(0);
    });
  });
});

describe("package-lock.json", () => {
  it("lists every optional dependency of every package, for every platform (npm ci refuses a lock that does not)", () => {
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { optionalDependencies?: Record<string, string> }>;
    };
    // Where npm resolves `dep` for the package at `key`: its own node_modules, then each parent's.
    const resolves = (key: string, dep: string) => {
      for (let at = key; ; ) {
        if (lock.packages[`${at ? `${at}/` : ""}node_modules/${dep}`]) return true;
        if (!at) return false;
        const cut = at.lastIndexOf("/node_modules/");
        at = cut === -1 ? "" : at.slice(0, cut);
      }
    };
    const missing = Object.entries(lock.packages).flatMap(([key, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((dep) => !resolves(key, dep))
        .map((dep) => `${key || "(root)"} -> ${dep}`),
    );
    expect(missing).toEqual([]);
  });
});

describe("a database that was never migrated", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({}, { migrate: false });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("makes ping answer 503, and the server says at start-up which command applies the migrations", async () => {
    const res = await fetch(`${server.url}/proxy/api/auth/ping`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "unavailable" });
    for (let i = 0; i < 50 && !/missing \d+ migration/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 100));
    const lines = server.output().split("\n").filter((l) => /migration/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/missing \d+ migration\(s\).*npm run setup/);
  });
});
