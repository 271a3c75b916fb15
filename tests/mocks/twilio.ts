import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import twilio from "twilio";

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
  /** A WhatsApp template's quick-reply buttons (id: the ButtonPayload Twilio posts back when pressed). */
  buttons: { id: string; title: string }[];
  /** The last state reported to the app (local page). */
  status: string;
};

/** A WhatsApp template as the fake renders it: its body with {{n}} replaced, and its quick-reply buttons. */
export type FakeTemplate = { body: string; buttons?: { id: string; title: string }[] };

/**
 * Local mode's WhatsApp templates (scripts/local.mjs gives the app these content SIDs): the code's
 * authentication template, the confirmation's quick-reply template, the link template.
 */
export const LOCAL_TEMPLATES: Record<string, FakeTemplate> = {
  HX00000000000000000000000000000c0d: { body: "*{{1}}* is your verification code. For your security, do not share this code." },
  HX0000000000000000000000000000c0f1: {
    body: "{{1}}: please confirm your cash-on-delivery order {{2}}. {{3}}",
    buttons: [
      { id: "confirm", title: "Confirm" },
      { id: "cancel", title: "Cancel" },
      { id: "change_address", title: "Change address" },
    ],
  },
  HX00000000000000000000000000001111: { body: "{{1}}: about your order {{2}}: {{3}}" },
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

export async function startFakeTwilio(
  options: {
    port?: number;
    host?: string;
    onMessage?: (m: FakeMessage) => void;
    /** Templates by content SID (unknown SIDs render as a code template). */
    templates?: Record<string, FakeTemplate>;
    /** The app's public URL: the local phone page posts the shopper's presses to <appUrl>/twilio/whatsapp, signed. */
    appUrl?: string;
  } = {},
) {
  const messages: FakeMessage[] = [];
  const attempts: FakeMessage[] = [];
  let rules: Rule[] = [];
  let counter = 0;
  const run = randomBytes(8).toString("hex");

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      // Local mode's window on what was "sent": every accepted message, newest last.
      if (req.method === "GET" && (req.url ?? "").split("?")[0] === "/messages") {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify({ messages: messages.map((m) => ({ sid: m.sid, to: m.to, channel: m.channel, body: m.body, buttons: m.buttons, status: m.status })) }));
        return;
      }
      // Local mode's phone: the messages, the shopper's buttons, and delivery reports to send.
      if (req.method === "GET" && (req.url ?? "").split("?")[0] === "/phone") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
        res.end(phonePage(new URL(req.url ?? "/", "http://x").searchParams.get("note")));
        return;
      }
      if (req.method === "POST" && req.url === "/phone/replay") {
        // Twilio delivering the last press again: the same MessageSid, the same signed body.
        const done = (note: string) => {
          res.writeHead(303, { location: `/phone?note=${encodeURIComponent(note)}` });
          res.end();
        };
        if (!lastPress) return done("no press to replay");
        signedPost(lastPress.url, lastPress.params).then((r) => done(`replayed ${lastPress!.params.MessageSid}: ${r.status} ${r.outcome}`), (error: unknown) => done(`the app did not answer: ${String(error)}`));
        return;
      }
      if (req.method === "POST" && (req.url === "/phone/press" || req.url === "/phone/status")) {
        const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
        const message = messages.find((m) => m.sid === form.get("sid"));
        const done = (note: string) => {
          res.writeHead(303, { location: `/phone?note=${encodeURIComponent(note)}` });
          res.end();
        };
        if (!message) return done("no such message");
        const sent = req.url === "/phone/press" ? press(message.sid, form.get("button") ?? "") : report(message.sid, form.get("status") ?? "delivered");
        sent.then((r) => done(`${r.status} ${r.outcome}`), (error: unknown) => done(`the app did not answer: ${String(error)}`));
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
        // Unique across the fake's restarts too (local mode keeps its database): a per-start prefix, then a counter.
        sid: `SM${run}${(++counter).toString(16).padStart(16, "0")}`,
        accountSid: match[1],
        to: rawTo.replace(/^whatsapp:/, ""),
        from: form.get("From"),
        messagingServiceSid: form.get("MessagingServiceSid"),
        body: contentSid ? render(contentSid, contentVariables) : (form.get("Body") ?? ""),
        channel: rawTo.startsWith("whatsapp:") ? "whatsapp" : "sms",
        contentSid,
        contentVariables,
        statusCallback: form.get("StatusCallback"),
        authorized: req.headers.authorization === expectedAuth,
        buttons: (contentSid && options.templates?.[contentSid]?.buttons) || [],
        status: "queued",
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

  function render(contentSid: string, variables: Record<string, string> | null): string {
    const template = options.templates?.[contentSid];
    if (!template) return `${variables?.["1"] ?? ""} is your verification code.`;
    return template.body.replace(/\{\{(\d+)\}\}/g, (_, n: string) => variables?.[n] ?? "");
  }

  async function signedPost(url: string, params: Record<string, string>) {
    const signature = twilio.getExpectedTwilioSignature(FAKE_TWILIO_ACCOUNT.token, url, params);
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
      body: new URLSearchParams(params).toString(),
    });
    const text = await res.text();
    return { status: res.status, outcome: res.headers.get("x-cod-outcome") ?? text.slice(0, 200) };
  }

  let inbound = 0;
  let lastPress: { url: string; params: Record<string, string> } | null = null;
  /** The shopper presses a quick-reply button of a WhatsApp message: Twilio's inbound webhook, signed, to the app. */
  function press(sid: string, button: string) {
    const message = messages.find((m) => m.sid === sid);
    if (!message || !options.appUrl) return Promise.resolve({ status: 0, outcome: "no message or no app URL" });
    const title = message.buttons.find((b) => b.id === button)?.title ?? button;
    const url = `${options.appUrl.replace(/\/+$/, "")}/twilio/whatsapp`;
    const params: Record<string, string> = {
      MessageSid: `SM${run}${(0xfeed0000 + ++inbound).toString(16).padStart(16, "0")}`,
      AccountSid: FAKE_TWILIO_ACCOUNT.sid,
      From: `whatsapp:${message.to}`,
      To: message.from ?? "",
      Body: title,
      ButtonText: title,
      ButtonPayload: button,
      OriginalRepliedMessageSid: sid,
      NumMedia: "0",
    };
    lastPress = { url, params };
    return signedPost(url, params);
  }

  /** Twilio reports a delivery state of a message to its status callback, signed (failed/undelivered carry 63016). */
  function report(sid: string, status: string) {
    const message = messages.find((m) => m.sid === sid);
    if (!message?.statusCallback) return Promise.resolve({ status: 0, outcome: "no status callback" });
    message.status = status;
    const failed = status === "failed" || status === "undelivered";
    return signedPost(message.statusCallback, {
      MessageSid: sid,
      MessageStatus: status,
      AccountSid: FAKE_TWILIO_ACCOUNT.sid,
      To: message.channel === "whatsapp" ? `whatsapp:${message.to}` : message.to,
      ...(failed ? { ErrorCode: "63016" } : {}),
    });
  }

  function phonePage(note: string | null): string {
    const esc = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const rows = [...messages]
      .reverse()
      .map((m) => {
        const buttons = m.buttons
          .map((b) => `<form method="post" action="/phone/press"><input type="hidden" name="sid" value="${m.sid}"><button name="button" value="${esc(b.id)}">${esc(b.title)}</button></form>`)
          .join("");
        const states = ["delivered", "read", "failed"]
          .map((st) => `<form method="post" action="/phone/status"><input type="hidden" name="sid" value="${m.sid}"><button class="state" name="status" value="${st}">${st}</button></form>`)
          .join("");
        return `<li class="${m.channel}"><p class="meta">${m.channel} to ${esc(m.to)} · ${m.sid} · ${esc(m.status)}</p><p>${esc(m.body).replace(/\n/g, "<br>")}</p><div class="buttons">${buttons}</div><div class="states">report: ${states}</div></li>`;
      })
      .join("");
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake phone (local mode)</title><meta http-equiv="refresh" content="10">
<style>body{font:15px system-ui;max-width:720px;margin:2em auto}li{list-style:none;border:1px solid #ccc;border-radius:8px;padding:.6em 1em;margin:.6em 0}li.whatsapp{border-color:#25d366}.meta{color:#666;font-size:12px}form{display:inline}.buttons button{margin:.2em;padding:.4em 1em}.state{font-size:12px}</style></head>
<body><h1>Fake phone</h1><p>What the fake Twilio "sent", newest first. Press a WhatsApp button as the shopper would (a signed inbound reply to the app), or report a delivery state.</p>${note ? `<p><strong>Last: ${esc(note)}</strong></p>` : ""}${lastPress ? `<form method="post" action="/phone/replay"><button>Deliver the last press again (same MessageSid ${lastPress.params.MessageSid})</button></form>` : ""}<ul>${rows || "<li>No messages yet.</li>"}</ul></body></html>`;
  }

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
    /** The shopper presses a WhatsApp button (the app's inbound webhook, signed); needs `appUrl`. */
    press,
    /** Twilio reports a delivery state for a message to the app (signed). */
    report,
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
