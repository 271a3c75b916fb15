// Loads the project's .env into process.env when the file exists (variables already set win).
// An empty value (`SHOPIFY_API_SECRET=`, as .env.example has it) means "use the default": it is left
// unset, exactly as the app's own configuration treats it, so every script agrees with the server.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";

export function loadDotEnv(file, env = process.env) {
  if (!fs.existsSync(file)) return;
  for (const [key, value] of Object.entries(parseEnv(fs.readFileSync(file, "utf8")))) {
    if (value !== "" && env[key] === undefined) env[key] = value;
  }
}

loadDotEnv(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", ".env"));
