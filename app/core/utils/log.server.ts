import { env } from "~/core/env.server";
import { maskPhone } from "~/shared/phone-mask";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

const SECRET_KEYS = /phone|token|code|otp|signature|secret|password|authorization/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (/phone/i.test(k) && typeof v === "string") out[k] = maskPhone(v);
    else if (SECRET_KEYS.test(k) && v != null) out[k] = "[redacted]";
    else out[k] = v;
  }
  return out;
}

function write(level: Level, message: string, fields: Record<string, unknown> = {}) {
  if (LEVELS[level] < LEVELS[env.LOG_LEVEL]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...redact(fields) });
  if (level === "error" || level === "warn") process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

/** Structured JSON logs. Fields named like phone numbers are masked; tokens, codes and signatures are redacted. */
export const log = {
  debug: (m: string, f?: Record<string, unknown>) => write("debug", m, f),
  info: (m: string, f?: Record<string, unknown>) => write("info", m, f),
  warn: (m: string, f?: Record<string, unknown>) => write("warn", m, f),
  error: (m: string, f?: Record<string, unknown>) => write("error", m, f),
};
