import net from "node:net";
import { signedProxyQuery } from "../../app/server/app-proxy-signature.mjs";
import { REQUEST_PROBE, requestInFlight, startServer, type RunningServer } from "../helpers/server";

/**
 * SIGTERM with keep-alive connections open, seen from the clients' sockets: no connection is reset.
 * A request in flight is answered with `Connection: close`; an idle keep-alive connection is still
 * answered while requests are in flight (a request its client sent as the stop began gets its answer,
 * `Connection: close`); once nothing is in flight the idle ones are closed with a FIN, and the process exits 0.
 */

type Answer = { status: number; headers: Record<string, string>; body: string };

/** One raw client connection: what it received, whether the server ended it (FIN) or it saw an error (a reset). */
function connect(server: RunningServer) {
  const socket = net.connect(server.port, "127.0.0.1");
  let received = "";
  let waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void } | null = null;
  const state = { ended: false, error: null as string | null };
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const tryAnswer = () => {
    const head = received.indexOf("\r\n\r\n");
    if (!waiting || head < 0) return;
    const [statusLine, ...lines] = received.slice(0, head).split("\r\n");
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
    const length = Number(headers["content-length"] ?? 0);
    if (Buffer.byteLength(received.slice(head + 4)) < length) return;
    const answer = { status: Number(statusLine.split(" ")[1]), headers, body: received.slice(head + 4, head + 4 + length) };
    received = received.slice(head + 4 + length);
    const w = waiting;
    waiting = null;
    w.resolve(answer);
  };
  socket.on("data", (chunk) => {
    received += chunk.toString("utf8");
    tryAnswer();
  });
  socket.on("end", () => {
    state.ended = true;
    waiting?.reject(new Error("the server closed the connection before answering"));
    socket.end();
  });
  socket.on("error", (error: NodeJS.ErrnoException) => {
    state.error = error.code ?? error.message;
    waiting?.reject(error);
  });
  const answer = () =>
    new Promise<Answer>((resolve, reject) => {
      waiting = { resolve, reject };
      tryAnswer();
      if (waiting && (state.ended || state.error)) reject(new Error(`the connection was already ${state.error ?? "closed"}`));
    });
  return {
    state,
    closed,
    ready: new Promise<void>((resolve) => socket.once("connect", () => resolve())),
    write: (text: string) => socket.write(text),
    async get(path: string): Promise<Answer> {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      return answer();
    },
    answer,
  };
}

describe("SIGTERM with keep-alive connections open", () => {
  it("answers what is in flight and what arrives on an open connection meanwhile with Connection: close, closes idle ones with a FIN, resets none, exits 0", async () => {
    const server = await startServer({}, { nodeArgs: REQUEST_PROBE });
    const idle = Array.from({ length: 4 }, () => connect(server));
    for (const c of idle) {
      await c.ready;
      const first = await c.get("/proxy/api/auth/ping");
      expect(first.status).toBe(200);
      expect(first.headers.connection).toBe("keep-alive");
    }
    // A request in flight: its head read, half its body sent.
    const slow = connect(server);
    await slow.ready;
    const body = JSON.stringify({ phone: "+14155550171" });
    slow.write(
      `POST /proxy/send-otp?${signedProxyQuery({ secret: "local-dev-api-secret" })} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await requestInFlight(server, "/proxy/send-otp");

    server.process.kill("SIGTERM");
    while (!/SIGTERM, finishing 1 in-flight request/.test(server.output())) await new Promise((r) => setTimeout(r, 20));

    // A client that reuses its idle connection as the stop begins is answered, and told the connection closes.
    const late = await idle[0].get("/proxy/api/auth/ping");
    expect(late.status).toBe(200);
    expect(late.headers.connection).toBe("close");
    await idle[0].closed;

    // The request in flight finishes with its answer, then its connection closes.
    slow.write(body.slice(10));
    const answered = await slow.answer();
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toMatchObject({ success: true });
    expect(answered.headers.connection).toBe("close");

    await Promise.all([slow, ...idle].map((c) => c.closed));
    for (const c of [slow, ...idle]) expect(c.state).toEqual({ ended: true, error: null });
    expect(await server.stop()).toBe(0);
  }, 60_000);
});
