import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { freePort } from "../../scripts/lib/free-port.mjs";
import { ROOT } from "../setup/databases";
import { postSigned, prepareDatabase } from "../helpers/server";

/**
 * `npm run local -- --twilio` as a developer runs it (scripts/local.mjs on the built server): the fake
 * Twilio runs as its own HTTP server and the app sends through the real Twilio client pointed at it,
 * so a code reaches the fake and nothing is written to the outbox.
 */
describe("local mode with the fake Twilio (scripts/local.mjs --twilio)", () => {
  it("texts the code through Twilio's client to the fake Twilio server, not to the outbox", async () => {
    if (!fs.existsSync(path.join(ROOT, "build", "index.js"))) throw new Error("no build/: run `npm run build` first");
    const dataDir = fs.mkdtempSync(path.join(ROOT, "data", `local-twilio-${inject("runId")}-`));
    const databaseUrl = `file:${path.join(dataDir, "app.db")}`;
    await prepareDatabase(databaseUrl);
    const [port, shopifyPort, twilioPort] = [await freePort(), await freePort(), await freePort()];
    const child = spawn(process.execPath, [path.join(ROOT, "scripts", "local.mjs"), "--twilio"], {
      cwd: ROOT,
      env: {
        ...process.env,
        // As `npm run local` runs: a development server (the stand-ins' origins are refused in production).
        NODE_ENV: "development",
        LOCAL_MODE: "true",
        PORT: String(port),
        HOST: "127.0.0.1",
        LOCAL_SHOPIFY_PORT: String(shopifyPort),
        LOCAL_TWILIO_PORT: String(twilioPort),
        DATABASE_URL: databaseUrl,
        SHOPIFY_API_KEY: "local-dev-api-key",
        SHOPIFY_API_SECRET: "local-dev-api-secret",
        SHOPIFY_APP_URL: "http://127.0.0.1",
        OTP_HASH_SECRET: "server-test-otp-hash-secret-0123456789abcdef",
        OUTBOX_DIR: dataDir,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      await expect.poll(() => /listening on http/.test(output), { timeout: 60_000, interval: 200 }).toBe(true);
      expect(output).toContain(`fake Twilio at http://127.0.0.1:${twilioPort}`);

      const phone = "+919876543277";
      const sent = await postSigned({ url: `http://127.0.0.1:${port}` }, "/send-otp", { phone });
      expect(sent.status).toBe(200);
      const listed = (await (await fetch(`http://127.0.0.1:${twilioPort}/messages`)).json()) as { messages: { to: string; body: string }[] };
      expect(listed.messages).toEqual([expect.objectContaining({ to: phone, body: expect.stringMatching(/\b\d{6}\b/) })]);
      // The fake Twilio prints its line from another process: it reaches this pipe a moment after the answer.
      await expect.poll(() => output, { timeout: 10_000, interval: 100 }).toMatch(/\[fake Twilio\] sms to \+919876543277: \d{6} is your/);
      expect(fs.existsSync(path.join(dataDir, "outbox.jsonl"))).toBe(false);
    } finally {
      // local.mjs and the two processes it started.
      if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
