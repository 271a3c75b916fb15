import crypto from "node:crypto";
import { env } from "~/env.server";

/**
 * HMAC-SHA256 of a secret value (a one-time code, an address-correction token) under OTP_HASH_SECRET,
 * with a purpose label so a hash made for one use never matches another. Only these hashes are stored.
 */
export function keyedHash(purpose: string, value: string): string {
  return crypto.createHmac("sha256", env.OTP_HASH_SECRET).update(`${purpose}\0${value}`).digest("hex");
}

/** Constant-time comparison of two hex digests. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** An unguessable URL-safe token with `bytes` bytes of randomness (16 bytes = 128 bits). */
export function randomToken(bytes = 24): string {
  return crypto.randomBytes(bytes).toString("base64url");
}

/** A numeric code of `digits` digits, uniformly distributed, from the CSPRNG. */
export function randomNumericCode(digits = 6): string {
  return crypto.randomInt(0, 10 ** digits).toString().padStart(digits, "0");
}
