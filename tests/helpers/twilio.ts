import twilio from "twilio";
import { env } from "~/core/env.server";
import { FAKE_TWILIO_ACCOUNT, startFakeTwilio, type FakeMessage, type FakeTwilio } from "../mocks/twilio";

type Settings = Partial<
  Pick<typeof env, "TWILIO_MESSAGING_SERVICE_SID" | "TWILIO_FROM_NUMBER" | "TWILIO_WHATSAPP_FROM" | "TWILIO_WHATSAPP_CONTENT_SID" | "TWILIO_WHATSAPP_CONFIRM_CONTENT_SID" | "TWILIO_WHATSAPP_LINK_CONTENT_SID" | "SMS_TIMEOUT_MS" | "TWILIO_VOICE_FROM">
>;

/** A WhatsApp template content SID of the right shape. */
export const CONTENT_SID = "HX0123456789abcdef0123456789abcdef";

/**
 * Twilio's status callback for a message, as Twilio sends it: form-encoded, to the URL given as the
 * message's StatusCallback, signed (X-Twilio-Signature) with the account's auth token.
 */
export function statusCallbackRequest(
  url: string,
  params: Record<string, string>,
  options: { token?: string; tamper?: (p: Record<string, string>) => void } = {},
): Request {
  const signature = twilio.getExpectedTwilioSignature(options.token ?? FAKE_TWILIO_ACCOUNT.token, url, params);
  const sent = { ...params };
  options.tamper?.(sent);
  return new Request(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
    body: new URLSearchParams(sent).toString(),
  });
}

/**
 * Points the app's SMS sender at a fake Twilio for the tests of this file: the real `twilio` client
 * runs and talks HTTP to the fake. Returns a handle whose `.twilio` is the fake (reset before each test).
 */
export function useFakeTwilio(settings: Settings = {}, hooks: { onMessage?: (m: FakeMessage) => void } = {}) {
  const handle = {} as { twilio: FakeTwilio; configure: (s: Settings) => void };
  const saved = { ...env };
  const base = {
    SMS_PROVIDER: "twilio" as const,
    TWILIO_ACCOUNT_SID: FAKE_TWILIO_ACCOUNT.sid,
    TWILIO_AUTH_TOKEN: FAKE_TWILIO_ACCOUNT.token,
    TWILIO_MESSAGING_SERVICE_SID: "MGfake0000000000000000000000000000",
    TWILIO_FROM_NUMBER: undefined,
    TWILIO_WHATSAPP_FROM: undefined,
    TWILIO_WHATSAPP_CONTENT_SID: undefined,
    TWILIO_WHATSAPP_CONFIRM_CONTENT_SID: undefined,
    TWILIO_WHATSAPP_LINK_CONTENT_SID: undefined,
    TWILIO_VOICE_FROM: undefined,
    SMS_TIMEOUT_MS: 3000,
  };
  handle.configure = (s) => Object.assign(env, s);
  beforeAll(async () => {
    handle.twilio = await startFakeTwilio({ onMessage: hooks.onMessage });
  });
  beforeEach(() => {
    handle.twilio.reset();
    Object.assign(env, base, { TWILIO_API_BASE: handle.twilio.url }, settings);
  });
  afterAll(async () => {
    Object.assign(env, saved);
    await handle.twilio?.close();
  });
  return handle;
}
