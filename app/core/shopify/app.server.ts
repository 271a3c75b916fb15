import "@shopify/shopify-app-remix/adapters/node";
import {
  ApiVersion,
  AppDistribution,
  BillingInterval,
  LogSeverity,
  shopifyApp,
} from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { databaseIsUp, prisma } from "~/core/db.server";
import { isDatabaseUnavailable } from "~/core/db/database-errors";
import { env } from "~/core/env.server";
import { CachedSessionStorage } from "~/core/shopify/session-storage.server";
import { RecoveringSessionStorage } from "~/core/shopify/recovering-session-storage.server";
import type { Shop } from "~/core/settings/shop.server";
import { recordInstall } from "~/core/settings/shop-install.server";
import { PAID_PLANS, usageTerms } from "~/shared/plans";
import { redirectShopifyApi } from "~/core/shopify/api-origin.server";
import { log } from "~/core/utils/log.server";
import { withAdminAccess } from "#admin-access";

if (env.SHOPIFY_API_ORIGIN) redirectShopifyApi(env.SHOPIFY_API_ORIGIN);

/**
 * Work a domain wants done when a shop installs the app (or authorizes it again), once its row exists:
 * each step queues a durable job (app/core/jobs), so a failure is retried with the queue's backoff
 * instead of being lost with the request. The steps are listed once, in app/server-build.ts
 * (`INSTALL_STEPS`, beside the job kinds), which hands them here when the server build loads.
 */
export type InstallStep = { name: string; run: (shop: Shop) => Promise<unknown> };
let installSteps: readonly InstallStep[] = [];
export function setInstallSteps(steps: readonly InstallStep[]): void {
  installSteps = steps;
}

/** The install steps for a shop, in order; one that fails (its job could not be queued) does not stop the next. */
export async function runInstallSteps(shop: Shop): Promise<void> {
  for (const step of installSteps) {
    await step.run(shop).catch((error: unknown) => log.warn("an install step failed", { shop: shop.domain, step: step.name, error: String(error) }));
  }
}

/**
 * The paid plans (app/shared/plans.ts) as the library's billing config: a recurring charge every 30
 * days, and a usage line item (the cap the merchant approves, and its terms) that verifications past
 * the allowance are charged to when the merchant turns that on (app/billing/usage-charges.server.ts).
 * Named as Shop.subscriptionPlan and the app_subscriptions/update webhook name them. Free needs no charge.
 */
type PlanLineItems = [
  { amount: number; currencyCode: string; interval: BillingInterval.Every30Days },
  { amount: number; currencyCode: string; interval: BillingInterval.Usage; terms: string },
];
export const BILLING_PLANS: Record<string, { lineItems: PlanLineItems }> = Object.fromEntries(
  PAID_PLANS.map((plan) => [
    plan.name,
    {
      lineItems: [
        { amount: plan.price, currencyCode: "USD", interval: BillingInterval.Every30Days as const },
        { amount: plan.usageCap, currencyCode: "USD", interval: BillingInterval.Usage as const, terms: usageTerms(plan) },
      ] satisfies PlanLineItems,
    },
  ]),
);

export const sessionStorage = new CachedSessionStorage(
  // The library's Prisma storage, given our generated client (same `Session` model). It checks for
  // its table once (no retry loop: a database that is down answers 503 at once, not after 10 s) and
  // checks again after a failure, so the app recovers without a restart.
  new RecoveringSessionStorage(new PrismaSessionStorage(prisma as never, { connectionRetries: 1, connectionRetryIntervalMs: 0 })),
  env.CACHE_TTL_SECONDS * 1000,
);

const shopify = shopifyApp({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: ApiVersion.October26,
  scopes: env.SCOPES.split(","),
  appUrl: env.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  sessionStorage,
  distribution: AppDistribution.AppStore,
  billing: BILLING_PLANS,
  // The library logs every app-proxy request at INFO; keep production logs to what matters.
  logger: { level: env.production ? LogSeverity.Error : env.NODE_ENV === "test" ? LogSeverity.Error : LogSeverity.Warning },
  hooks: {
    // A (re)install: make sure the shop row exists and is marked installed, with its name and language
    // (a failed read is queued to read again: app/core/settings/shop-install.server.ts).
    afterAuth: async ({ session, admin }) => {
      const shop = await recordInstall(session.shop, admin);
      // What domains asked to do on install (the checkout function's payment customization, ...).
      await runInstallSteps(shop);
    },
  },
  // Shopify-managed install with token exchange: the scopes are declared in shopify.app.toml and Shopify
  // installs the app (and updates its scopes) itself; the app trades the admin's session token for an
  // offline access token, with no OAuth redirects (docs/deploy.md, "Install, billing and the embedded admin").
  future: { unstable_newEmbeddedAuthStrategy: true },
  ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
});

export default shopify;
export const apiVersion = ApiVersion.October26;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
/**
 * The library's authentication, as `#admin-access` gives it (package.json "imports"): unchanged in a
 * production build; in a development build (`npm run build:dev`) local mode's admin stand-in,
 * app/dev/admin-access.server.ts, gives an admin request without a session token one for the demo shop.
 */
const withAccess = withAdminAccess(shopify.authenticate);
export const authenticate: typeof shopify.authenticate = {
  ...withAccess,
  admin: ((request: Request) => adminOrUnavailable(() => withAccess.admin(request))) as typeof shopify.authenticate.admin,
};

/**
 * Every admin loader and action starts with `authenticate.admin`: there, a database that cannot be
 * used becomes a thrown 503 `unavailable` (with Retry-After), which app/routes/app.tsx's error
 * boundary shows as the admin's error state, instead of a 500. A session from the cache
 * authenticates without the database, so one trivial query asks it too (the admin is not a hot path).
 * Nothing is kept from the failure: the next request tries again (see RecoveringSessionStorage).
 */
/** What app/routes/app.tsx's error boundary shows as the admin's error state: 503 with Retry-After. */
function unavailable(): Response {
  return new Response("The service is briefly unavailable. Try again in a moment.", { status: 503, headers: { "Retry-After": "5" } });
}

async function adminOrUnavailable<T>(authenticateAdmin: () => Promise<T>): Promise<T> {
  let context: T;
  try {
    context = await authenticateAdmin();
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw unavailable();
    throw error;
  }
  if (!(await databaseIsUp())) throw unavailable();
  return context;
}
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;

/** What `authenticate.admin` gives a loader or action: the Admin client and the billing API. */
export type AdminContext = Awaited<ReturnType<typeof shopify.authenticate.admin>>;
