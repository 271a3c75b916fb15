import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../setup/databases";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * The README's local session, and docs/local-mode.md's, are transcripts of what the app answers: each
 * `npm run proxy` line of them is run here, through the real script, against the built app in local mode
 * (a fresh one per document), and its answer must be the documented one. A value documented as ending in `…` is the start of one that differs every run; in a
 * request it stands for the value of the same key in the latest answer (the device token), and the
 * documented example code stands for the code of the latest outbox line; a value documented as `…` alone
 * differs whole (an id the store picks).
 *
 * docs/local-mode.md's walk after the order (its "A walk" block) is run the same way: `npm run local:order`
 * through the real script against the built app and the fake Shopify beside it, each `curl` against that
 * fake (which delivers its webhooks to the app, as `npm run local` has it do), and each answer must be the
 * documented one, the example order's number and name standing for the order the script placed.
 */
const run = promisify(execFile);
const EXAMPLE_CODE = "482913";
const LOCAL_SHOPIFY_ORIGIN = "http://127.0.0.1:3001";

type Step =
  | { kind: "proxy"; args: string[]; status: number; answer: unknown }
  | { kind: "outbox"; answer: unknown }
  | { kind: "local:order"; args: string[]; answer: string }
  | { kind: "curl"; method: string; url: string; body: string | null; answer: unknown };

function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]);
  return words;
}

/** The first ```sh block after `heading` ("A session", "A walk") in the document. */
function documentedSession(file: string, heading = "A session"): Step[] {
  const readme = fs.readFileSync(path.join(ROOT, file), "utf8");
  const start = readme.indexOf(heading);
  if (start < 0) throw new Error(`${file} has no "${heading}"`);
  const block = readme.slice(readme.indexOf("```sh\n", start) + 6, readme.indexOf("\n```", readme.indexOf("```sh\n", start)));
  const lines = block.split("\n");
  const steps: Step[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\s+#.*$/, "");
    if (line.startsWith("$ npm run proxy -- ")) {
      const status = Number(/^HTTP (\d{3})$/.exec(lines[i + 1])?.[1]);
      steps.push({ kind: "proxy", args: shellWords(line.slice("$ npm run proxy -- ".length)), status, answer: JSON.parse(lines[i + 2]) });
      i += 2;
    } else if (line.startsWith("$ tail -1 data/outbox.jsonl")) {
      steps.push({ kind: "outbox", answer: JSON.parse(lines[i + 1]) });
      i += 1;
    } else if (line.startsWith("$ npm run local:order")) {
      steps.push({ kind: "local:order", args: shellWords(line.slice("$ npm run local:order".length).replace(/^ --/, "")), answer: lines[i + 1] });
      i += 1;
    } else if (line.startsWith("$ curl ")) {
      const words = shellWords(line.slice("$ curl ".length));
      const url = words.find((w) => w.startsWith("127.0.0.1:"));
      if (!url) throw new Error(`${file}: no URL in ${line}`);
      steps.push({ kind: "curl", method: words.includes("POST") || words.includes("-d") ? "POST" : "GET", url, body: words.includes("-d") ? words[words.indexOf("-d") + 1] : null, answer: JSON.parse(lines[i + 1]) });
      i += 1;
    }
  }
  return steps;
}

/** Documented ⊆ actual: every documented key with its value; arrays whole; `…` ends a prefix. */
function matches(documented: unknown, actual: unknown, at = "$"): string[] {
  if (documented === "…") return actual === undefined ? [`${at}: missing`] : [];
  if (typeof documented === "string" && documented.endsWith("…")) {
    return typeof actual === "string" && actual.startsWith(documented.slice(0, -1)) ? [] : [`${at}: ${JSON.stringify(actual)} does not start with ${JSON.stringify(documented.slice(0, -1))}`];
  }
  if (Array.isArray(documented)) {
    if (!Array.isArray(actual) || actual.length !== documented.length) return [`${at}: ${JSON.stringify(actual)} is not ${JSON.stringify(documented)}`];
    return documented.flatMap((d, i) => matches(d, actual[i], `${at}[${i}]`));
  }
  if (documented && typeof documented === "object") {
    if (!actual || typeof actual !== "object") return [`${at}: ${JSON.stringify(actual)} is not an object`];
    return Object.entries(documented).flatMap(([k, v]) => matches(v, (actual as Record<string, unknown>)[k], `${at}.${k}`));
  }
  return documented === actual ? [] : [`${at}: ${JSON.stringify(actual)} is not ${JSON.stringify(documented)}`];
}

describe.each(["README.md", "docs/local-mode.md"])("the local session in %s", (file) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ NODE_ENV: "development" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("is what the app answers today, line by line", async () => {
    const steps = documentedSession(file);
    expect(steps.filter((s) => s.kind === "proxy").length).toBeGreaterThanOrEqual(8);
    const latest: Record<string, unknown> = {};
    let code = "";
    for (const step of steps) {
      if (step.kind === "outbox") {
        const line = JSON.parse(fs.readFileSync(path.join(server.dataDir, "outbox.jsonl"), "utf8").trim().split("\n").pop()!) as { body: string };
        code = /\d{6}/.exec(line.body)![0];
        const documented = JSON.parse(JSON.stringify(step.answer).replaceAll(EXAMPLE_CODE, code));
        expect(matches(documented, line), "tail -1 data/outbox.jsonl").toEqual([]);
        continue;
      }
      if (step.kind !== "proxy") throw new Error(`the session has a ${step.kind} step`);
      Object.assign(latest, await proxyStep(server, step, latest, code));
    }
  });
});

/** Runs a documented `npm run proxy` line through the real script and checks its answer; returns the answer. */
async function proxyStep(server: RunningServer, step: Extract<Step, { kind: "proxy" }>, latest: Record<string, unknown>, code: string) {
  const args = step.args.map((arg, i) => {
    if (i < 2) return arg;
    const body = JSON.parse(arg) as Record<string, unknown>;
    for (const [key, value] of Object.entries(body)) {
      if (key === "otp" && value === EXAMPLE_CODE) body[key] = code;
      else if (typeof value === "string" && value.endsWith("…")) body[key] = latest[key];
    }
    return JSON.stringify(body);
  });
  const { stdout } = await run(process.execPath, [path.join(ROOT, "scripts", "proxy.mjs"), ...args], {
    env: { ...process.env, APP_URL: server.url },
  }).catch((err: { stdout: string }) => ({ stdout: err.stdout }));
  const status = Number(/^HTTP (\d{3})/.exec(stdout)?.[1]);
  const answer = JSON.parse(stdout.slice(stdout.indexOf("\n") + 1).replaceAll(server.shopify!.origin, LOCAL_SHOPIFY_ORIGIN)) as Record<string, unknown>;
  const label = `npm run proxy -- ${step.args.join(" ")}`;
  expect({ label, status }).toEqual({ label, status: step.status });
  expect(matches(step.answer, answer), `${label} answered ${JSON.stringify(answer).slice(0, 400)}`).toEqual([]);
  return answer;
}

describe("the walk after the order in docs/local-mode.md", () => {
  let server: RunningServer;
  const saved = { LOCAL_APP_URL: process.env.LOCAL_APP_URL, SHOPIFY_API_SECRET: process.env.SHOPIFY_API_SECRET };
  beforeAll(async () => {
    server = await startServer({ NODE_ENV: "development" });
    // As `npm run local` runs it: the fake Shopify delivers its webhooks to the app, signed with the app's secret.
    process.env.LOCAL_APP_URL = server.url;
    process.env.SHOPIFY_API_SECRET = "local-dev-api-secret";
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await server?.stop();
  });

  it("is what the store and the app answer today, line by line", async () => {
    const steps = documentedSession("docs/local-mode.md", "A walk");
    expect(steps.filter((s) => s.kind === "curl").length).toBeGreaterThanOrEqual(3);
    const origin = server.shopify!.origin;
    // The documented example order, and the order the script placed.
    let example: { numeric: string; name: string } | null = null;
    let placed: { numeric: string; name: string } | null = null;
    // The order the latest step placed (local:order's, then the checkout's): /orders is shown for it.
    let latestOrder = "";
    const latest: Record<string, unknown> = {};
    const asPlaced = (text: string) => (example && placed ? text.replaceAll(example.numeric, placed.numeric).replaceAll(example.name, placed.name) : text);
    for (const step of steps) {
      if (step.kind === "local:order") {
        const { stdout } = await run(process.execPath, [path.join(ROOT, "scripts", "local-order.mjs"), ...step.args], {
          env: { ...process.env, SHOPIFY_APP_URL: server.url, SHOPIFY_API_ORIGIN: origin, SHOPIFY_API_SECRET: "local-dev-api-secret", LOCAL_SHOP: "demo-shop.myshopify.com" },
        });
        const order = (text: string) => {
          const m = /(#L\d+) \(gid:\/\/shopify\/Order\/(\d+)\)/.exec(text);
          if (!m) throw new Error(`no order in ${text}`);
          return { name: m[1], numeric: m[2] };
        };
        example = order(step.answer);
        placed = order(stdout);
        expect(stdout.trim().split("\n").pop()).toBe(asPlaced(step.answer));
        latestOrder = `gid://shopify/Order/${placed.numeric}`;
        continue;
      }
      if (step.kind === "proxy") {
        Object.assign(latest, await proxyStep(server, step, latest, ""));
        continue;
      }
      if (step.kind !== "curl") throw new Error(`the walk has a ${step.kind} step`);
      // $C: the cart of the latest checkout link (its c= parameter).
      const cart = typeof latest.checkoutUrl === "string" ? (new URL(latest.checkoutUrl).searchParams.get("c") ?? "") : "";
      const url = `${origin}${step.url.replace(/^127\.0\.0\.1:\d+/, "").replace("$ORDER", placed?.numeric ?? "").replace("$C", cart)}`;
      const documented: unknown = JSON.parse(asPlaced(JSON.stringify(step.answer)));
      const ask = async () => {
        const init = step.body ? { method: step.method, body: step.body, headers: { "content-type": "application/json" } } : { method: step.method };
        const answer = (await (await fetch(url, init)).json()) as Record<string, unknown>;
        // /orders lists every order the store holds: the documented one is the latest placed order's entry.
        return Array.isArray(answer.orders) ? { ...answer, orders: (answer.orders as { id: string }[]).filter((o) => o.id === latestOrder) } : answer;
      };
      let actual = await ask();
      // What the app does about an order it was told of (the balance line) runs in its worker: /orders is asked
      // again until it shows it, or the tries run out, and then it must be the documented answer.
      for (let i = 0; step.method === "GET" && i < 50 && matches(documented, actual).length; i++) {
        await new Promise((r) => setTimeout(r, 200));
        actual = await ask();
      }
      expect(matches(documented, actual), `curl ${step.method} ${step.url} answered ${JSON.stringify(actual).slice(0, 400)}`).toEqual([]);
      const paidFor = (actual.order as { id?: unknown } | undefined)?.id;
      if (typeof paidFor === "string") latestOrder = paidFor;
    }
  });
});
