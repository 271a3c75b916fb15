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
 * documented example code stands for the code of the latest outbox line.
 */
const run = promisify(execFile);
const EXAMPLE_CODE = "482913";
const LOCAL_SHOPIFY_ORIGIN = "http://127.0.0.1:3001";

type Step =
  | { kind: "proxy"; args: string[]; status: number; answer: unknown }
  | { kind: "outbox"; answer: unknown };

function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2]);
  return words;
}

/** The first ```sh block after "A session" in the document. */
function documentedSession(file: string): Step[] {
  const readme = fs.readFileSync(path.join(ROOT, file), "utf8");
  const start = readme.indexOf("A session");
  if (start < 0) throw new Error(`${file} has no "A session"`);
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
    }
  }
  return steps;
}

/** Documented ⊆ actual: every documented key with its value; arrays whole; `…` ends a prefix. */
function matches(documented: unknown, actual: unknown, at = "$"): string[] {
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
      Object.assign(latest, answer);
    }
  });
});
