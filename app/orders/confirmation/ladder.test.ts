import { parseLadder, quietUntil, rungAfter, shopLadder, voicePrompt } from "./ladder";

describe("the ladder's steps", () => {
  it("orders the set steps by delay (equal delays in the ladder's order) and is null with none", () => {
    expect(shopLadder({ ladderWhatsappMinutes: 30, ladderSmsMinutes: 0, ladderVoiceMinutes: 30, ladderPersonMinutes: null })).toEqual([
      { rung: "sms", minutes: 0 },
      { rung: "whatsapp", minutes: 30 },
      { rung: "voice", minutes: 30 },
    ]);
    expect(shopLadder({ ladderWhatsappMinutes: null, ladderSmsMinutes: null, ladderVoiceMinutes: null, ladderPersonMinutes: null })).toBeNull();
  });

  it("reads a stored ladder back, dropping what it does not know", () => {
    const ladder = parseLadder('[{"rung":"voice","minutes":0},{"rung":"fax","minutes":1},{"rung":"person","minutes":5}]');
    expect(ladder).toEqual([
      { rung: "voice", minutes: 0 },
      { rung: "person", minutes: 5 },
    ]);
    expect(rungAfter(ladder!, "voice")).toEqual({ rung: "person", minutes: 5 });
    expect(rungAfter(ladder!, "person")).toBeNull();
    expect(parseLadder("not json")).toBeNull();
    expect(parseLadder(null)).toBeNull();
  });
});

describe("quiet hours", () => {
  const q = { quietHoursStart: 21 * 60, quietHoursEnd: 9 * 60, timezone: "Asia/Kolkata" };

  it("across midnight, in the shop's time zone: a time inside waits for the end, a time outside does not", () => {
    // 22:30 and 02:00 in Kolkata (UTC+5:30) wait until 09:00 there (03:30 UTC).
    expect(quietUntil(new Date("2026-11-27T17:00:00Z"), q)?.toISOString()).toBe("2026-11-28T03:30:00.000Z");
    expect(quietUntil(new Date("2026-11-27T20:30:00Z"), q)?.toISOString()).toBe("2026-11-28T03:30:00.000Z");
    expect(quietUntil(new Date("2026-11-28T03:30:00Z"), q)).toBeNull();
    expect(quietUntil(new Date("2026-11-27T15:29:00Z"), q)).toBeNull();
  });

  it("within one day, and none when not set or empty", () => {
    const lunch = { quietHoursStart: 12 * 60, quietHoursEnd: 14 * 60, timezone: null };
    expect(quietUntil(new Date("2026-11-27T13:15:00Z"), lunch)?.toISOString()).toBe("2026-11-27T14:00:00.000Z");
    expect(quietUntil(new Date("2026-11-27T14:00:00Z"), lunch)).toBeNull();
    expect(quietUntil(new Date("2026-11-27T13:15:00Z"), { quietHoursStart: null, quietHoursEnd: null, timezone: null })).toBeNull();
    expect(quietUntil(new Date("2026-11-27T13:15:00Z"), { quietHoursStart: 600, quietHoursEnd: 600, timezone: null })).toBeNull();
  });
});

describe("the call's words", () => {
  it("say the order's number without '#' and the amount, in the shop's language, never a phone", () => {
    const en = voicePrompt(["en"], { shop: "Demo", order: "#1001", amount: { amount: 1299, currency: "INR" } });
    expect(en.text).toContain("order 1001.");
    expect(en.text).toContain("is 1299 rupees.");
    expect(en).toMatchObject({ language: "en-US", voice: "Polly.Joanna" });
    expect(voicePrompt(["hi-IN", "en"], { shop: "Demo", order: "#1001", amount: null })).toMatchObject({ language: "hi-IN", voice: "Polly.Aditi" });
    expect(voicePrompt(["hi-IN"], { shop: "Demo", order: "#1001", amount: null }).text).not.toContain("{amount}");
  });
});
