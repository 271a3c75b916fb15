import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { signedProxyQuery } from "../../app/server/app-proxy-signature.mjs";
import { REQUEST_PROBE, requestInFlight, startServer } from "../helpers/server";
import { ROOT } from "../setup/databases";

describe("npm start without NODE_ENV", () => {
  it("runs production: the local storefront emulation, a development-only page, does not exist", async () => {
    const server = await startServer({ NODE_ENV: undefined });
    try {
      const res = await fetch(`${server.url}/dev/storefront`);
      expect(res.status).toBe(404);
      await res.body?.cancel();
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe("an uncaught exception", () => {
  it("stops accepting, finishes the request in flight, logs one line and exits 1", async () => {
    const hook = pathToFileURL(path.join(ROOT, "tests", "helpers", "crash-hook.mjs")).href;
    const server = await startServer({}, { nodeArgs: ["--import", hook, ...REQUEST_PROBE] });
    const q = signedProxyQuery({ secret: "local-dev-api-secret" });
    const body = JSON.stringify({ phone: "+14155550161" });
    let refusedWhileDraining: unknown = null;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        `${server.url}/proxy/send-otp?${q}`,
        { method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on("error", reject);
      // Half the body now; the exception happens while the server is still reading it.
      req.write(body.slice(0, 10));
      void (async () => {
        // Only once the server holds the request (its head read): then the exception must spare it.
        await requestInFlight(server, "/proxy/send-otp");
        server.process.kill("SIGUSR2");
        while (!/uncaught exception/.test(server.output())) await new Promise((r) => setTimeout(r, 20));
        refusedWhileDraining = await fetch(`${server.url}/proxy/api/auth/ping`).then(
          (r) => r.status,
          (e: Error) => e,
        );
        req.end(body.slice(10));
      })();
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ success: true });
    // A new connection is refused while the request in flight finishes.
    expect(refusedWhileDraining).toBeInstanceOf(Error);
    // It exits by itself (no SIGTERM needed), with 1 for the supervisor to restart it.
    if (server.process.exitCode === null) await new Promise((resolve) => server.process.once("exit", resolve));
    expect(await server.stop()).toBe(1);
    const lines = server.output().split("\n").filter((l) => /uncaught exception/.test(l));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: "error", msg: expect.stringMatching(/stopping after 1 in-flight request/) });
  }, 60_000);
});
