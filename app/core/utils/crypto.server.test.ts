import { randomToken } from "./crypto.server";

describe("randomToken", () => {
  it("gives tokens of the asked length, all different, across many refills of its pool", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const token = randomToken(12);
      expect(token).toMatch(/^[A-Za-z0-9_-]{16}$/);
      seen.add(token);
    }
    expect(seen.size).toBe(3000);
    expect(randomToken()).toHaveLength(32);
    expect(randomToken(1000)).toHaveLength(1334);
  });

  it("never hands out the same bytes twice (no run of zeros from the wiped part of the pool)", () => {
    const tokens = Array.from({ length: 1000 }, () => Buffer.from(randomToken(16), "base64url"));
    expect(tokens.filter((t) => t.every((b) => b === 0))).toHaveLength(0);
  });
});
