import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback fake of Twilio's Programmable Messaging API (POST /2010-04-01/Accounts/{sid}/Messages.json)
 * that the real `twilio` client talks to (env.TWILIO_API_BASE points it here). It records every
 * message so a test can read the code that was "sent", and can be told to answer like Twilio does
 * when a number is invalid (21211) or a landline (21614), to fail with a 5xx, to hang, or to answer late
 * (the message is sent, as a slow Twilio does, but the answer comes after `delayMs`).
 */
export type FakeMessage = {
  sid: string;
  accountSid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  /** The text; for a WhatsApp template, the fake's rendering of it ("{{1}} is your verification code."). */
  body: string;
  channel: "sms" | "whatsapp";
  /** Content API: the template's content SID and its variables, when the message is a template. */
  contentSid: string | null;
  contentVariables: Record<string, string> | null;
  /** Where Twilio would report the message's delivery states. */
  statusCallback: string | null;
  authorized: boolean;
};

export type Failure = "invalid_number" | "landline" | "server_error" | "rate_limited_by_twilio" | "bad_credentials" | "hang" | "late";

type Rule = { when: (m: FakeMessage) => boolean; failure: Failure; times: number; delayMs: number };

const ANSWERS: Record<Exclude<Failure, "hang" | "late">, { status: number; code: number; message: string }> = {
  invalid_number: { status: 400, code: 21211, message: "The 'To' number is not a valid phone number." },
  landline: { status: 400, code: 21614, message: "'To' number is not a valid mobile number" },
  server_error: { status: 503, code: 20500, message: "Service unavailable" },
  rate_limited_by_twilio: { status: 429, code: 20429, message: "Too Many Requests" },
  bad_credentials: { status: 401, code: 20003, message: "Authenticate" },
};

export type FakeTwilio = Awaited<ReturnType<typeof startFakeTwilio>>;

export const FAKE_TWILIO_ACCOUNT = { sid: "ACfake00000000000000000000000000", token: "fake-twilio-token" };

export async function startFakeTwilio(options: { port?: number; host?: string; onMessage?: (m: FakeMessage) => void } = {}) {
  const messages: FakeMessage[] = [];
  const attempts: FakeMessage[] = [];
  let rules: Rule[] = [];
  let counter = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      // Local mode's window on what was "sent": every accepted message, newest last.
      if (req.method === "GET" && (req.url ?? "").split("?")[0] === "/messages") {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify({ messages: messages.map((m) => ({ sid: m.sid, to: m.to, channel: m.channel, body: m.body })) }));
        return;
      }
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? "");
      if (req.method !== "POST" || !match) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: 20404, message: "The requested resource was not found", status: 404 }));
        return;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const expectedAuth = `Basic ${Buffer.from(`${FAKE_TWILIO_ACCOUNT.sid}:${FAKE_TWILIO_ACCOUNT.token}`).toString("base64")}`;
      const rawTo = form.get("To") ?? "";
      const contentSid = form.get("ContentSid");
      let contentVariables: Record<string, string> | null = null;
      try {
        contentVariables = form.get("ContentVariables") ? JSON.parse(form.get("ContentVariables")!) : null;
      } catch {
        contentVariables = null;
      }
      const message: FakeMessage = {
        sid: `SM${(++counter).toString(16).padStart(32, "0")}`,
        accountSid: match[1],
        to: rawTo.replace(/^whatsapp:/, ""),
        from: form.get("From"),
        messagingServiceSid: form.get("MessagingServiceSid"),
        body: contentSid ? `${contentVariables?.["1"] ?? ""} is your verification code.` : (form.get("Body") ?? ""),
        channel: rawTo.startsWith("whatsapp:") ? "whatsapp" : "sms",
        contentSid,
        contentVariables,
        statusCallback: form.get("StatusCallback"),
        authorized: req.headers.authorization === expectedAuth,
      };
      attempts.push(message);
      const rule = rules.find((r) => r.times > 0 && r.when(message));
      const failure: Failure | null = !message.authorized ? "bad_credentials" : (rule?.failure ?? null);
      if (rule) rule.times -= 1;
      if (failure === "hang") return; // never answers: the client's timeout must end it
      if (failure && failure !== "late") {
        const a = ANSWERS[failure];
        res.writeHead(a.status, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: a.code, message: a.message, more_info: `https://www.twilio.com/docs/errors/${a.code}`, status: a.status }));
        return;
      }
      messages.push(message);
      options.onMessage?.(message);
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(201, { "content-type": "application/json" });
        res.end(accepted(message, rawTo));
      };
      if (failure === "late") setTimeout(answer, rule!.delayMs).unref();
      else answer();
    });
  });

  /** Twilio's 201 answer for an accepted message. */
  function accepted(message: FakeMessage, rawTo: string): string {
    return JSON.stringify({
      sid: message.sid,
      account_sid: message.accountSid,
      to: rawTo,
      from: message.from,
      messaging_service_sid: message.messagingServiceSid,
      body: message.body,
      status: "queued",
      num_segments: "1",
      direction: "outbound-api",
      api_version: "2010-04-01",
      date_created: new Date().toUTCString(),
      uri: `/2010-04-01/Accounts/${message.accountSid}/Messages/${message.sid}.json`,
    });
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    /** Messages Twilio accepted, in order. */
    messages,
    /** Every request, accepted or not. */
    attempts,
    /** The next `times` sends matching `when` (default: any) fail this way (`late`: sent, answered after `delayMs`, 1 s by default). */
    fail(failure: Failure, options: { times?: number; when?: (m: FakeMessage) => boolean; delayMs?: number } = {}) {
      rules.push({ failure, times: options.times ?? Infinity, when: options.when ?? (() => true), delayMs: options.delayMs ?? 1000 });
    },
    /** The 6-digit code in the latest message accepted for this number. */
    codeFor(to: string): string {
      const last = messages.filter((m) => m.to === to).at(-1);
      const code = last && /\b(\d{6})\b/.exec(last.body)?.[1];
      if (!code) throw new Error(`fake Twilio: no code was sent to ${to}`);
      return code;
    },
    reset() {
      messages.length = 0;
      attempts.length = 0;
      rules = [];
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
