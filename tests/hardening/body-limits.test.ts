import http from "node:http";
import net from "node:net";
import { signedProxyQuery } from "../../app/server/app-proxy-signature.mjs";
import { startServer, type RunningServer } from "../helpers/server";

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A signed POST whose body is written in `chunks` chunks of `chunkSize` bytes with Transfer-Encoding: chunked. */
function postChunked(server: RunningServer, path: string, chunkSize: number, chunks: number) {
  const q = signedProxyQuery({ secret: "local-dev-api-secret" });
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      `${server.url}/proxy${path}?${q}`,
      { method: "POST", headers: { "content-type": "application/json" }, agent: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        res.on("error", reject);
      },
    );
    // A server that answers early may cut off the rest of an endless upload: that is allowed,
    // as long as the whole answer arrived first.
    let answered = false;
    req.on("response", () => (answered = true));
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const piece = Buffer.alloc(chunkSize, "x");
    let sent = 0;
    const writeMore = () => {
      while (sent < chunks) {
        sent++;
        if (!req.write(sent === 1 ? Buffer.concat([Buffer.from('{"phone":"'), piece]) : piece)) return void req.once("drain", writeMore);
      }
      req.end('"}');
    };
    writeMore();
  });
}

describe("request bodies over the limit, sent chunked (no Content-Length)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const kib of [32, 128, 1024, 4096]) {
    it(`answers 413 JSON to a ${kib} KiB chunked body and keeps serving`, async () => {
      const res = await postChunked(server, "/send-otp", 16 * 1024, kib / 16);
      expect(res.status).toBe(413);
      expect(res.headers["content-type"]).toMatch(/application\/json/);
      expect(JSON.parse(res.body).code).toBe("payload_too_large");
      const ping = await fetch(`${server.url}/proxy/api/auth/ping`);
      expect(ping.status).toBe(200);
      expect(server.process.exitCode).toBeNull();
    });
  }

  it("still serves a request already in flight while an oversized body is refused", async () => {
    // A slow request in flight (its body arrives late) must survive another request's oversized body.
    const q = signedProxyQuery({ secret: "local-dev-api-secret" });
    const slow = new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${server.url}/proxy/send-otp?${q}`,
        { method: "POST", headers: { "content-type": "application/json" }, agent: false },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode!));
        },
      );
      req.on("error", reject);
      req.write('{"phone":');
      setTimeout(() => req.end('"+14155550199"}'), 600);
    });
    const big = await postChunked(server, "/verify-otp", 64 * 1024, 8);
    expect(big.status).toBe(413);
    expect(await slow).toBe(200);
  });

  it("closes or drains the connection: a raw client gets the 413 and the socket does not hang", async () => {
    const q = signedProxyQuery({ secret: "local-dev-api-secret" });
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(server.port, "127.0.0.1");
      let got = "";
      socket.setEncoding("utf8");
      socket.on("data", (d) => (got += d));
      socket.on("close", () => resolve(got));
      socket.on("error", () => resolve(got));
      socket.write(
        `POST /proxy/send-otp?${q} HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
      );
      const chunk = "x".repeat(32 * 1024);
      for (let i = 0; i < 8; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      socket.write("0\r\n\r\n");
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`connection still open after 5 s; got: ${got.slice(0, 200)}`));
      }, 5_000).unref();
      // A keep-alive connection that was fully drained may stay open: end our side once answered
      // (a chunked answer ends with the zero-length chunk; one with a Content-Length, with its JSON).
      socket.on("data", () => {
        const whole = got.endsWith("0\r\n\r\n") || (/content-length: \d+/i.test(got) && got.endsWith("}"));
        if (got.includes("payload_too_large") && whole) socket.end();
      });
    });
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    expect(text).toMatch(/"code":"payload_too_large"/);
  });
});
