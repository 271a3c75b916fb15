import crypto from "node:crypto";
import { env } from "~/core/env.server";

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

// Random bytes are drawn from the CSPRNG 4 KiB at a time and handed out once each (as Node does for
// randomUUID and randomInt): a send takes three tokens, and one system call per token showed in its profile.
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomOffset = 0;

/** An unguessable URL-safe token with `bytes` bytes of randomness (16 bytes = 128 bits). */
export function randomToken(bytes = 24): string {
  return pooledRandom(bytes, "base64url");
}

/** `bytes` random bytes as hex (ids of Prisma's cuid shape). */
export function randomHex(bytes: number): string {
  return pooledRandom(bytes, "hex");
}

function pooledRandom(bytes: number, encoding: "base64url" | "hex"): string {
  if (bytes > 256) return crypto.randomBytes(bytes).toString(encoding);
  if (randomOffset + bytes > randomPool.length) {
    randomPool = crypto.randomBytes(RANDOM_POOL_BYTES);
    randomOffset = 0;
  }
  const token = randomPool.toString(encoding, randomOffset, randomOffset + bytes);
  // Each byte is used once: what was handed out is wiped from the pool.
  randomPool.fill(0, randomOffset, randomOffset + bytes);
  randomOffset += bytes;
  return token;
}

/** A numeric code of `digits` digits, uniformly distributed, from the CSPRNG. */
export function randomNumericCode(digits = 6): string {
  return crypto.randomInt(0, 10 ** digits).toString().padStart(digits, "0");
}
