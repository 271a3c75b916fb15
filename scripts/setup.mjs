#!/usr/bin/env node
// Prepares the database: generates the Prisma clients when missing, applies pending migrations to
// DATABASE_URL (SQLite at data/app.db by default), and in local mode installs the demo shop
// (an offline session and an active subscription) so the storefront API works with no Shopify store.
import "../app/server/load-env.mjs";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { applyMigrations, providerOf, resolveDatabaseUrl, sqlitePath } from "../prisma/migrate.mjs";
import { LOCAL_DEFAULTS } from "../app/server/app-proxy-signature.mjs";
import { clientFor } from "./lib/prisma-client.mjs";
import toml from "toml";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
fs.mkdirSync(path.join(root, "data"), { recursive: true });

if (!fs.existsSync(path.join(root, "prisma", "generated", "postgresql", "index.js"))) {
  execFileSync(process.execPath, [path.join(root, "scripts", "db.mjs"), "generate"], { stdio: "inherit" });
}

const url = resolveDatabaseUrl(process.env.DATABASE_URL);
const applied = await migrateOrExplain(url);
console.log(`setup: database ${providerOf(url)}: ${applied.length ? `applied ${applied.join(", ")}` : "up to date"}`);

const production = process.env.NODE_ENV === "production";
const localMode = process.env.LOCAL_MODE ? process.env.LOCAL_MODE === "true" : !production && !process.env.SHOPIFY_API_KEY;
if (localMode) {
  const shop = process.env.DEMO_SHOP || LOCAL_DEFAULTS.shop;
  const prisma = await clientFor(url);
  await installDemoShop(prisma, shop);
  await prisma.$disconnect();
  console.log(`setup: local mode: demo shop ${shop} installed with an active subscription`);
}

/**
 * Applies the migrations. A PostgreSQL database that does not exist is created when the role may
 * (CREATEDB); every other failure to reach the database ends with one message saying what is wrong
 * and how to fix it, not a stack trace.
 */
async function migrateOrExplain(databaseUrl) {
  try {
    return await applyMigrations(databaseUrl);
  } catch (err) {
    if (providerOf(databaseUrl) !== "postgresql") fail(`cannot prepare the SQLite database ${sqlitePath(databaseUrl)}: ${err.message}`);
    const target = new URL(databaseUrl);
    const name = decodeURIComponent(target.pathname.slice(1));
    const where = `${target.hostname}:${target.port || 5432}`;
    if (err.code === "3D000") {
      await createDatabase(target, name, where);
      return applyMigrations(databaseUrl);
    }
    if (err.code === "ECONNREFUSED" || err.code === "ENOTFOUND" || err.code === "ETIMEDOUT" || /timeout/i.test(err.message)) {
      fail(`cannot reach PostgreSQL at ${where} (${err.code ?? err.message}). Start it, or fix the host and port in DATABASE_URL.`);
    }
    if (err.code === "28P01" || err.code === "28000") {
      fail(`PostgreSQL at ${where} refused the login of "${decodeURIComponent(target.username)}": ${err.message}. Fix the user and password in DATABASE_URL.`);
    }
    fail(`cannot migrate the PostgreSQL database "${name}" at ${where}: ${err.message}`);
  }
}

async function createDatabase(target, name, where) {
  const { default: pg } = await import("pg");
  const maintenance = new URL(target);
  maintenance.pathname = "/postgres";
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    console.log(`setup: created the PostgreSQL database "${name}" at ${where}`);
  } catch (err) {
    fail(
      `the PostgreSQL database "${name}" does not exist at ${where}, and it could not be created (${err.message}). ` +
        `Create it as a user who may, e.g. \`createdb -h ${target.hostname} -p ${target.port || 5432} -U postgres ${name}\` ` +
        `or \`CREATE DATABASE "${name}";\` in psql, then run \`npm run setup\` again.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

function appScopes() {
  const config = toml.parse(fs.readFileSync(path.join(root, "shopify.app.toml"), "utf8"));
  return String(config.access_scopes.scopes).replace(/\s+/g, "");
}

function fail(message) {
  console.error(`setup: ${message}`);
  process.exit(1);
}

async function installDemoShop(prisma, shop) {
  const session = {
    id: `offline_${shop}`,
    shop,
    state: "local",
    isOnline: false,
    // The app's scopes, from shopify.app.toml as the app reads them: the admin refuses a session missing one.
    scope: appScopes(),
    accessToken: "shpat_local_demo_token",
  };
  await prisma.session.upsert({ where: { id: session.id }, create: session, update: session });
  await prisma.shop.upsert({
    where: { domain: shop },
    // The local fake Shopify takes deposits (as a Shopify Plus store does) and prices in rupees like the demo product.
    create: {
      domain: shop,
      name: "Demo Shop",
      currency: "INR",
      depositsAvailable: true,
      subscriptionStatus: "active",
      subscriptionPlan: "COD Verify Pro",
      subscriptionTest: true,
    },
    update: { uninstalledAt: null, subscriptionStatus: "active" },
  });
}
