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

/**
 * A call placed through Programmable Voice (POST /2010-04-01/Accounts/{sid}/Calls.json) with its TwiML
 * inline: what it says (the <Say> texts), where its <Gather> posts the key, where its states go.
 */
export type FakeCall = {
  sid: string;
  to: string;
  from: string | null;
  twiml: string;
  /** The <Say> texts, in order. */
  spoken: string[];
  gatherAction: string | null;
  statusCallback: string | null;
  amdCallback: string | null;
  machineDetection: string | null;
  authorized: boolean;
  /** queued until the shopper answers (or not): then completed, busy, no-answer or failed. */
  status: string;
  /** What the app answered to the key, when one was pressed (its TwiML's <Say> texts). */
  heard: string[];
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

export type Failure = "invalid_number" | "landline" | "unsubscribed" | "server_error" | "rate_limited_by_twilio" | "bad_credentials" | "hang" | "late";

type Rule = { when: (m: FakeMessage) => boolean; failure: Failure; times: number; delayMs: number };

const ANSWERS: Record<Exclude<Failure, "hang" | "late">, { status: number; code: number; message: string }> = {
  invalid_number: { status: 400, code: 21211, message: "The 'To' number is not a valid phone number." },
  landline: { status: 400, code: 21614, message: "'To' number is not a valid mobile number" },
  unsubscribed: { status: 400, code: 21610, message: "Attempt to send to unsubscribed recipient" },
  server_error: { status: 503, code: 20500, message: "Service unavailable" },
  rate_limited_by_twilio: { status: 429, code: 20429, message: "Too Many Requests" },
  bad_credentials: { status: 401, code: 20003, message: "Authenticate" },
};

export type FakeTwilio = Awaited<ReturnType<typeof startFakeTwilio>>;

export const FAKE_TWILIO_ACCOUNT = { sid: "ACfake00000000000000000000000000", token: "fake-twilio-token" };

/** The app's environment for sending through `twilio` (the fake's account, SMS from +15005550006): the real client, pointed at the fake. */
export function sendingThrough(twilio: { url: string }) {
  return {
    SMS_PROVIDER: "twilio",
    TWILIO_API_BASE: twilio.url,
    TWILIO_ACCOUNT_SID: FAKE_TWILIO_ACCOUNT.sid,
    TWILIO_AUTH_TOKEN: FAKE_TWILIO_ACCOUNT.token,
    TWILIO_FROM_NUMBER: "+15005550006",
  } as const;
}

export async function startFakeTwilio(
  options: {
    port?: number;
    host?: string;
    onMessage?: (m: FakeMessage) => void;
    onCall?: (c: FakeCall) => void;
    /** Templates by content SID (unknown SIDs render as a code template). */
    templates?: Record<string, FakeTemplate>;
    /** The app's public URL: the local phone page posts the shopper's presses to <appUrl>/twilio/whatsapp, signed. */
    appUrl?: string;
  } = {},
) {
  const messages: FakeMessage[] = [];
  const attempts: FakeMessage[] = [];
  const calls: FakeCall[] = [];
  let callRules: { failure: "invalid_number" | "server_error"; times: number }[] = [];
  let lastGather: { url: string; params: Record<string, string> } | null = null;
  let rules: Rule[] = [];
  // Numbers that texted a stop word to the SMS sender: Twilio refuses to text them (21610) until START.
  const optedOut = new Set<string>();
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
      if (req.method === "POST" && req.url === "/phone/call") {
        // The shopper's phone rings: a key, no key, voicemail, busy or no answer.
        const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
        const sid = form.get("sid") ?? "";
        const what = form.get("answer") ?? "";
        const done = (note: string) => {
          res.writeHead(303, { location: `/phone?note=${encodeURIComponent(note)}` });
          res.end();
        };
        const answered = /^[0-9]$/.test(what)
          ? answerCall(sid, { digits: what })
          : what === "silence"
            ? answerCall(sid, {})
            : what === "voicemail"
              ? answerCall(sid, { answeredBy: "machine_start" })
              : endCall(sid, what === "busy" ? "busy" : "no-answer");
        answered.then((r) => done(r.note), (error: unknown) => done(`the app did not answer: ${String(error)}`));
        return;
      }
      if (req.method === "POST" && (req.url === "/phone/text" || req.url === "/phone/replay-text")) {
        // The shopper texts the SMS sender back (STOP, START, HELP), or Twilio delivers that text again.
        const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
        const done = (note: string) => {
          res.writeHead(303, { location: `/phone?note=${encodeURIComponent(note)}` });
          res.end();
        };
        const sent = req.url === "/phone/text" ? textIn(form.get("from") ?? "", form.get("body") ?? "") : replayText();
        sent.then((r) => done(`${r.status} ${r.outcome}`), (error: unknown) => done(`the app did not answer: ${String(error)}`));
        return;
      }
      if (req.method === "POST" && req.url === "/phone/replay-key") {
        const done = (note: string) => {
          res.writeHead(303, { location: `/phone?note=${encodeURIComponent(note)}` });
          res.end();
        };
        if (!lastGather) return done("no key to replay");
        signedPost(lastGather.url, lastGather.params).then((r) => done(`replayed the key of ${lastGather!.params.CallSid}: ${r.status} ${r.outcome}`), (error: unknown) => done(String(error)));
        return;
      }
      const callMatch = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/.exec(req.url ?? "");
      if (req.method === "POST" && callMatch) {
        const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
        const expected = `Basic ${Buffer.from(`${FAKE_TWILIO_ACCOUNT.sid}:${FAKE_TWILIO_ACCOUNT.token}`).toString("base64")}`;
        const twiml = form.get("Twiml") ?? "";
        const call: FakeCall = {
          sid: `CA${run}${(++counter).toString(16).padStart(16, "0")}`,
          to: form.get("To") ?? "",
          from: form.get("From"),
          twiml,
          spoken: [...twiml.matchAll(/<Say[^>]*>([^<]*)<\/Say>/g)].map((m) => unescapeXml(m[1])),
          gatherAction: /<Gather[^>]*\saction="([^"]+)"/.exec(twiml)?.[1] ?? null,
          statusCallback: form.get("StatusCallback"),
          amdCallback: form.get("AsyncAmd") === "true" ? form.get("AsyncAmdStatusCallback") : null,
          machineDetection: form.get("MachineDetection"),
          authorized: req.headers.authorization === expected,
          status: "queued",
          heard: [],
        };
        // Twilio refuses a call without To, From, or instructions (21201 / 21213 / 21205).
        const callRule = callRules.find((r) => r.times > 0);
        if (callRule) callRule.times -= 1;
        const refusal = callRule
          ? ANSWERS[callRule.failure]
          : !call.authorized
          ? { status: 401, code: 20003, message: "Authenticate" }
          : !call.to || !call.from
            ? { status: 400, code: 21201, message: "No 'To' or 'From' number is specified" }
            : !twiml && !form.get("Url")
              ? { status: 400, code: 21205, message: "Url parameter is required" }
              : null;
        if (refusal) {
          res.writeHead(refusal.status, { "content-type": "application/json" });
          res.end(JSON.stringify({ ...refusal, more_info: `https://www.twilio.com/docs/errors/${refusal.code}` }));
          return;
        }
        calls.push(call);
        options.onCall?.(call);
        res.writeHead(201, { "content-type": "application/json" });
        res.end(JSON.stringify({ sid: call.sid, account_sid: callMatch[1], to: call.to, from: call.from, status: "queued", direction: "outbound-api", api_version: "2010-04-01", date_created: new Date().toUTCString(), uri: `/2010-04-01/Accounts/${callMatch[1]}/Calls/${call.sid}.json` }));
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
      const stopped = message.channel === "sms" && optedOut.has(message.to) ? "unsubscribed" : null;
      const failure: Failure | null = !message.authorized ? "bad_credentials" : (stopped ?? rule?.failure ?? null);
      if (rule && !stopped) rule.times -= 1;
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

  /**
   * How the fake reaches the app: HTTP by default (local mode); a route test hands the request to the
   * route module instead (`deliverWith`), the same signed request either way.
   */
  let deliver: (request: Request) => Promise<Response> = (request) => fetch(request);

  /** A signed form POST to the app, as Twilio sends its webhooks. */
  function signedRequest(url: string, params: Record<string, string>): Request {
    const signature = twilio.getExpectedTwilioSignature(FAKE_TWILIO_ACCOUNT.token, url, params);
    return new Request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
      body: new URLSearchParams(params).toString(),
    });
  }

  async function signedPost(url: string, params: Record<string, string>) {
    const res = await deliver(signedRequest(url, params));
    const text = await res.text();
    return { status: res.status, outcome: res.headers.get("x-cod-outcome") ?? text.slice(0, 200) };
  }

  const unescapeXml = (v: string) => v.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");

  /**
   * The shopper answers a call: the machine detection's verdict (human, or `answeredBy`), then, for a
   * human with `digits`, the key posted to the <Gather>'s action (what the app answers is kept in
   * `heard`), then the call's end (completed) to its status callback. All signed, as Twilio signs them.
   */
  async function answerCall(sid: string, answer: { digits?: string; answeredBy?: string }) {
    const call = calls.find((c) => c.sid === sid);
    if (!call) return { note: "no such call", gather: null };
    const base = { CallSid: sid, AccountSid: FAKE_TWILIO_ACCOUNT.sid, From: call.from ?? "", To: call.to, Direction: "outbound-api" };
    const answeredBy = answer.answeredBy ?? "human";
    if (call.amdCallback) await signedPost(call.amdCallback, { ...base, AnsweredBy: answeredBy, MachineDetectionDuration: "1800" });
    let gather: { status: number; outcome: string } | null = null;
    if (answer.digits !== undefined && answeredBy === "human" && call.gatherAction) {
      const params = { ...base, CallStatus: "in-progress", Digits: answer.digits, FinishedOnKey: "" };
      lastGather = { url: call.gatherAction, params };
      const res = await deliver(signedRequest(call.gatherAction, params));
      const twiml = await res.text();
      call.heard = [...twiml.matchAll(/<Say[^>]*>([^<]*)<\/Say>/g)].map((m) => unescapeXml(m[1]));
      gather = { status: res.status, outcome: res.headers.get("x-cod-outcome") ?? "" };
    }
    const ended = await endCall(sid, "completed", answeredBy);
    return { note: `${gather ? `key ${answer.digits}: ${gather.status} ${gather.outcome}; ` : ""}${ended.note}`, gather };
  }

  /** The call ends: its status callback (busy, no-answer, failed, or completed after an answer), signed. */
  async function endCall(sid: string, status: "completed" | "busy" | "no-answer" | "failed", answeredBy?: string) {
    const call = calls.find((c) => c.sid === sid);
    if (!call?.statusCallback) return { note: "no such call or no status callback", gather: null };
    call.status = status;
    const params: Record<string, string> = { CallSid: sid, AccountSid: FAKE_TWILIO_ACCOUNT.sid, From: call.from ?? "", To: call.to, Direction: "outbound-api", CallStatus: status };
    if (status === "completed") params.CallDuration = "20";
    if (answeredBy) params.AnsweredBy = answeredBy;
    const r = await signedPost(call.statusCallback, params);
    return { note: `call ${status}: ${r.status} ${r.outcome}`, gather: null };
  }

  /** The last key posted to the app again (Twilio retrying the same request). */
  function replayKey() {
    if (!lastGather) return Promise.resolve({ status: 0, outcome: "no key" });
    return signedPost(lastGather.url, lastGather.params);
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

  let lastText: { url: string; params: Record<string, string> } | null = null;
  /**
   * The shopper texts the SMS sender (Twilio's incoming-message webhook, signed, to <appUrl>/twilio/sms).
   * Like Twilio's standard opt-out handling, a stop word stops the fake's SMS to the number and START
   * (or UNSTOP, YES) lets them through again.
   */
  function textIn(from: string, body: string, appUrl = options.appUrl) {
    if (!appUrl) return Promise.resolve({ status: 0, outcome: "no app URL" });
    const word = body.trim().toLowerCase();
    if (["stop", "stopall", "unsubscribe", "cancel", "end", "quit", "optout", "revoke"].includes(word)) optedOut.add(from);
    if (["start", "unstop", "yes"].includes(word)) optedOut.delete(from);
    const url = `${appUrl.replace(/\/+$/, "")}/twilio/sms`;
    const params: Record<string, string> = {
      MessageSid: `SM${run}${(0xbeef0000 + ++inbound).toString(16).padStart(16, "0")}`,
      AccountSid: FAKE_TWILIO_ACCOUNT.sid,
      From: from,
      To: "+15005550006",
      Body: body,
      NumMedia: "0",
      OptOutType: word === "stop" ? "STOP" : word === "start" ? "START" : word === "help" ? "HELP" : "",
    };
    if (!params.OptOutType) delete params.OptOutType;
    lastText = { url, params };
    return signedPost(url, params);
  }

  /** The last inbound text posted again, same MessageSid (Twilio retrying the webhook). */
  function replayText() {
    if (!lastText) return Promise.resolve({ status: 0, outcome: "no text" });
    return signedPost(lastText.url, lastText.params);
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
        const replies =
          m.channel === "sms"
            ? ["STOP", "START", "HELP"].map((w) => `<form method="post" action="/phone/text"><input type="hidden" name="from" value="${esc(m.to)}"><button class="state" name="body" value="${w}">${w}</button></form>`).join(" ")
            : "";
        return `<li class="${m.channel}"><p class="meta">${m.channel} to ${esc(m.to)} · ${m.sid} · ${esc(m.status)}</p><p>${esc(m.body).replace(/\n/g, "<br>")}</p><div class="buttons">${buttons}</div><div class="states">report: ${states}${replies ? ` · text back: ${replies}` : ""}</div></li>`;
      })
      .join("");
    const callRows = [...calls]
      .reverse()
      .map((c) => {
        const ringing = c.status === "queued";
        const keys = ["1", "2", "3", "9"].map((k) => `<button name="answer" value="${k}">${k}</button>`).join("");
        const other = [
          ["silence", "answer, press nothing"],
          ["voicemail", "voicemail"],
          ["no-answer", "no answer"],
          ["busy", "busy"],
        ]
          .map(([v, label]) => `<button class="state" name="answer" value="${v}">${label}</button>`)
          .join("");
        const controls = ringing ? `<form method="post" action="/phone/call"><input type="hidden" name="sid" value="${c.sid}"><div class="keypad">${keys}</div><div class="states">${other}</div></form>` : "";
        return `<li class="call${ringing ? " ringing" : ""}"><p class="meta">call to ${esc(c.to)} · ${c.sid} · ${ringing ? "ringing" : esc(c.status)}</p><p>${esc(c.spoken[0] ?? "")}</p>${c.heard.length ? `<p class="heard">App: ${esc(c.heard.join(" "))}</p>` : ""}${controls}</li>`;
      })
      .join("");
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake phone (local mode)</title><meta http-equiv="refresh" content="10">
<style>body{font:15px system-ui;max-width:720px;margin:2em auto}li{list-style:none;border:1px solid #ccc;border-radius:8px;padding:.6em 1em;margin:.6em 0}li.whatsapp{border-color:#25d366}.meta{color:#666;font-size:12px}li.call{border-color:#1a73e8}li.ringing{background:#eef4ff}.keypad button{font-size:18px;width:3em;margin:.2em;padding:.3em}.heard{font-style:italic}form{display:inline}.buttons button{margin:.2em;padding:.4em 1em}.state{font-size:12px}</style></head>
<body><h1>Fake phone</h1><p>What the fake Twilio "sent", newest first. Answer a ringing call with a key (or not), press a WhatsApp button as the shopper would (a signed inbound reply to the app), or report a delivery state.</p>${note ? `<p><strong>Last: ${esc(note)}</strong></p>` : ""}${lastPress ? `<form method="post" action="/phone/replay"><button>Deliver the last press again (same MessageSid ${lastPress.params.MessageSid})</button></form>` : ""}${lastText ? `<form method="post" action="/phone/replay-text"><button>Deliver the last text again (same MessageSid ${lastText.params.MessageSid})</button></form>` : ""}${lastGather ? `<form method="post" action="/phone/replay-key"><button>Deliver the last key again (same call ${lastGather.params.CallSid})</button></form>` : ""}${callRows ? `<h2>Calls</h2><ul>${callRows}</ul>` : ""}<h2>Messages</h2><ul>${rows || "<li>No messages yet.</li>"}</ul></body></html>`;
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
    /** Calls Twilio placed, in order. */
    calls,
    /** The next `times` calls are refused this way (21211 invalid number, or a 503). */
    failCalls(failure: "invalid_number" | "server_error", times = 1) {
      callRules.push({ failure, times });
    },
    /** Route tests: the app's webhooks go to this function instead of over HTTP. */
    deliverWith(fn: ((request: Request) => Promise<Response>) | null) {
      deliver = fn ?? ((request) => fetch(request));
    },
    answerCall,
    endCall,
    replayKey,
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
    /** The shopper texts the SMS sender (STOP, START, HELP ...): the app's inbound webhook, signed. */
    textIn,
    replayText,
    /** The 6-digit code in the latest message accepted for this number. */
    codeFor(to: string): string {
      const last = messages.filter((m) => m.to === to).at(-1);
      const code = last && /\b(\d{6})\b/.exec(last.body)?.[1];
      if (!code) throw new Error(`fake Twilio: no code was sent to ${to}`);
      return code;
    },
    reset() {
      calls.length = 0;
      callRules = [];
      lastGather = null;
      messages.length = 0;
      attempts.length = 0;
      rules = [];
      optedOut.clear();
      lastText = null;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
