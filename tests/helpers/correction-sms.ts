import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { env } from "~/core/env.server";
import { readOutbox } from "./outbox";

export { readOutbox };

/**
 * Gives this test file its own SMS outbox (a temporary folder, emptied before each test), so parallel
 * workers never read each other's messages. The SMS module reads `env.OUTBOX_DIR` when it sends.
 */
export function useOutbox(): { dir: string } {
  const handle = { dir: "" };
  const saved = { OUTBOX_DIR: env.OUTBOX_DIR, SMS_PROVIDER: env.SMS_PROVIDER };
  beforeAll(() => {
    handle.dir = fs.mkdtempSync(path.join(os.tmpdir(), "cod-outbox-"));
    Object.assign(env, { OUTBOX_DIR: handle.dir, SMS_PROVIDER: "outbox" });
  });
  beforeEach(() => fs.rmSync(path.join(handle.dir, "outbox.jsonl"), { force: true }));
  afterAll(() => {
    Object.assign(env, saved);
    fs.rmSync(handle.dir, { recursive: true, force: true });
  });
  return handle;
}

/** The path and token of the last address-correction link texted to `to`. */
export function lastCorrectionLink(dir: string, to: string): { url: URL; token: string } {
  const message = readOutbox(dir).filter((m) => m.to === to).at(-1);
  if (!message) throw new Error(`no SMS to ${to} in the outbox`);
  const m = /(https?:\/\/\S+\/ac\/([A-Za-z0-9_-]+))/.exec(message.body);
  if (!m) throw new Error(`the SMS to ${to} has no correction link: ${message.body}`);
  return { url: new URL(m[1]), token: m[2] };
}
