import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { env } from "~/env.server";

export type OutboxMessage = { time: string; to: string; body: string; channel: string; id: string; shop: unknown };

type OutboxEnv = { OUTBOX_DIR?: string; SMS_PROVIDER?: string };

/**
 * Gives this test file its own SMS outbox (a temporary folder, emptied before each test), so parallel
 * workers never read each other's messages. The SMS module reads `env.OUTBOX_DIR` when it sends.
 */
export function useOutbox(): { dir: string } {
  const handle = { dir: "" };
  const saved: OutboxEnv & { processOutboxDir?: string } = {};
  beforeAll(() => {
    handle.dir = fs.mkdtempSync(path.join(os.tmpdir(), "cod-outbox-"));
    const e = env as unknown as OutboxEnv;
    saved.OUTBOX_DIR = e.OUTBOX_DIR;
    saved.SMS_PROVIDER = e.SMS_PROVIDER;
    Object.assign(env, { OUTBOX_DIR: handle.dir, SMS_PROVIDER: "outbox" });
    saved.processOutboxDir = process.env.OUTBOX_DIR;
    process.env.OUTBOX_DIR = handle.dir; // read by the outbox stand-in until the SMS module lands
  });
  beforeEach(() => fs.rmSync(path.join(handle.dir, "outbox.jsonl"), { force: true }));
  afterAll(() => {
    Object.assign(env, { OUTBOX_DIR: saved.OUTBOX_DIR, SMS_PROVIDER: saved.SMS_PROVIDER });
    if (saved.processOutboxDir === undefined) delete process.env.OUTBOX_DIR;
    else process.env.OUTBOX_DIR = saved.processOutboxDir;
    fs.rmSync(handle.dir, { recursive: true, force: true });
  });
  return handle;
}

/** The SMS written to the outbox folder `dir` (`<dir>/outbox.jsonl`), oldest first. */
export function readOutbox(dir: string): OutboxMessage[] {
  const file = path.join(dir, "outbox.jsonl");
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboxMessage);
}

/** The path and token of the last address-correction link texted to `to`. */
export function lastCorrectionLink(dir: string, to: string): { url: URL; token: string } {
  const message = readOutbox(dir).filter((m) => m.to === to).at(-1);
  if (!message) throw new Error(`no SMS to ${to} in the outbox`);
  const m = /(https?:\/\/\S+\/ac\/([A-Za-z0-9_-]+))/.exec(message.body);
  if (!m) throw new Error(`the SMS to ${to} has no correction link: ${message.body}`);
  return { url: new URL(m[1]), token: m[2] };
}
