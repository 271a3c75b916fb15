// Loads the project's .env into process.env when the file exists (variables already set win).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", ".env");
if (fs.existsSync(file)) {
  const before = { ...process.env };
  process.loadEnvFile(file);
  Object.assign(process.env, before);
}
