#!/usr/bin/env node
// Prepares the database: generates the Prisma clients when missing, applies pending migrations to
// DATABASE_URL (SQLite at data/app.db by default), and in local mode installs the demo shop
// (an offline session and an active subscription) so the storefront API works with no Shopify store.
import "./lib/load-env.mjs";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { applyMigrations, providerOf, resolveDatabaseUrl } from "../prisma/migrate.mjs";
import { LOCAL_DEFAULTS } from "./lib/app-proxy-signature.mjs";
import { clientFor } from "./lib/prisma-client.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
fs.mkdirSync(path.join(root, "data"), { recursive: true });

if (!fs.existsSync(path.join(root, "prisma", "generated", "postgresql", "index.js"))) {
  execFileSync(process.execPath, [path.join(root, "scripts", "db.mjs"), "generate"], { stdio: "inherit" });
}

const url = resolveDatabaseUrl(process.env.DATABASE_URL);
const applied = await applyMigrations(url);
console.log(`setup: database ${providerOf(url)}: ${applied.length ? `applied ${applied.join(", ")}` : "up to date"}`);

const production = process.env.NODE_ENV === "production";
const localMode = process.env.LOCAL_MODE ? process.env.LOCAL_MODE === "true" : !production && !process.env.SHOPIFY_API_KEY;
if (localMode) {
  const shop = process.env.DEMO_SHOP ?? LOCAL_DEFAULTS.shop;
  const prisma = await clientFor(url);
  await installDemoShop(prisma, shop);
  await prisma.$disconnect();
  console.log(`setup: local mode: demo shop ${shop} installed with an active subscription`);
}

async function installDemoShop(prisma, shop) {
  const session = {
    id: `offline_${shop}`,
    shop,
    state: "local",
    isOnline: false,
    scope: "read_orders,write_orders,read_draft_orders,write_draft_orders,unauthenticated_read_product_listings,unauthenticated_write_checkouts,write_payment_terms",
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
