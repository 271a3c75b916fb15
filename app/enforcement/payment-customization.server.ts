import { z } from "zod";
import { prisma } from "~/core/db.server";
import { hitRateLimit, releaseRateLimit } from "~/core/rate-limit/rate-limit.server";
import { forgetShop, type Shop } from "~/core/settings/shop.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { PAYMENT_CUSTOMIZATION_CREATE, PAYMENT_CUSTOMIZATION_UPDATE } from "~/core/shopify/operations";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { FUNCTION_HANDLE, functionConfiguration, PAYMENT_CUSTOMIZATION_TITLE } from "./cod-methods";
import { codHiddenAtCheckout, type PauseReason } from "./pause";
import { verificationStatus } from "./pause.server";
import { currentStorefrontReadiness, storefrontReadiness } from "./storefront-readiness.server";

/**
 * The payment customization that runs our checkout function for a shop: created through the Admin API
 * on install and kept in step with the settings and with whether the shop can verify now (which
 * methods are COD; hiding them or not, app/enforcement/pause.ts). Its id and the last outcome are kept
 * on the shop row, so the admin can show what checkout does. Durable re-syncs: enforcement-jobs.server.ts.
 */
type EnforcementShop = Pick<
  Shop,
  | "id"
  | "domain"
  | "codMethodNames"
  | "enforceAtCheckout"
  | "keepCodHiddenWhenPaused"
  | "otpEnabled"
  | "subscriptionStatus"
  | "subscriptionPlan"
  | "usageChargesEnabled"
  | "usageChargesRefused"
  | "burnMonth"
  | "paymentCustomizationId"
  | "uninstalledAt"
  | "storefrontReadyAt"
  | "storefrontReadyBy"
  | "timezone"
>;

const METAFIELD = { namespace: "$app:cod-verify", key: "function-configuration", type: "json" } as const;

const userErrors = z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string(), code: z.string().nullish() }));
const customization = z.object({ id: z.string(), enabled: z.boolean() }).nullable();
const createReply = z.object({ paymentCustomizationCreate: z.object({ paymentCustomization: customization, userErrors }) });
const updateReply = z.object({ paymentCustomizationUpdate: z.object({ paymentCustomization: customization, userErrors }) });

export type SyncOutcome = { ok: true; id: string; enabled: boolean } | { ok: false; error: string };

/**
 * Creates or updates the shop's payment customization to match its settings and whether it can verify
 * now; records the outcome. It writes the whole desired state, so running it twice is harmless. While
 * paused the customization is disabled and its configuration says `enforce: false` (either alone
 * stops the hiding), unless the merchant chose to keep COD hidden.
 */
export async function syncPaymentCustomization(given: EnforcementShop): Promise<SyncOutcome> {
  if (given.uninstalledAt) return { ok: false, error: "the app is not installed" };
  // Nothing is hidden before shoppers can verify: the live theme is asked unless the merchant confirmed.
  const shop = await currentStorefrontReadiness(given);
  const { pause } = await verificationStatus(shop);
  const enabled = codHiddenAtCheckout(shop, pause);
  const input = {
    title: PAYMENT_CUSTOMIZATION_TITLE,
    enabled,
    metafields: [{ ...METAFIELD, value: JSON.stringify({ ...functionConfiguration(shop.codMethodNames, shop.timezone, clock.now()), enforce: enabled }) }],
  };
  let outcome = shop.paymentCustomizationId ? await update(shop.domain, shop.paymentCustomizationId, input) : null;
  // Gone (the merchant deleted it in Shopify's settings) or never made: make a new one, once.
  if (!outcome || (!outcome.ok && outcome.notFound)) {
    const made = await createOnce(shop, { ...input, functionHandle: FUNCTION_HANDLE });
    if (made === "made_elsewhere") {
      // A concurrent sync made it: bring it in step with the settings this sync was given.
      const id = await idMadeElsewhere(shop);
      if (!id) return { ok: false, error: "another sync is creating the payment customization" };
      outcome = await update(shop.domain, id, input);
    } else {
      outcome = made;
    }
  }
  const at = clock.now();
  if (outcome.ok) {
    await prisma.shop.update({
      where: { id: shop.id },
      data: { paymentCustomizationId: outcome.id, paymentCustomizationEnabled: outcome.enabled, paymentCustomizationSyncedAt: at, paymentCustomizationError: null },
    });
    // What checkout does now: no cached copy of the row may keep saying otherwise.
    forgetShop(shop.domain);
    log.info("payment customization in step with settings", { shop: shop.domain, id: outcome.id, enabled: outcome.enabled, pause });
    return { ok: true, id: outcome.id, enabled: outcome.enabled };
  }
  await prisma.shop.update({ where: { id: shop.id }, data: { paymentCustomizationError: outcome.error, paymentCustomizationSyncedAt: at } });
  forgetShop(shop.domain);
  log.warn("payment customization could not be saved", { shop: shop.domain, error: outcome.error });
  return { ok: false, error: outcome.error };
}

type Attempt = { ok: true; id: string; enabled: boolean } | { ok: false; error: string; notFound?: boolean };

/** How long one sync may take to create the customization and record its id before another may try. */
const CREATE_LEASE_SECONDS = 60;
const createLease = (shop: Pick<Shop, "id">) => `payment-customization-create:${shop.id}`;

/**
 * Creates the customization unless a concurrent sync (the afterAuth of parallel first requests, a
 * settings save, another instance) holds the shop's create lease: taken by one atomic counter statement
 * (app/core/rate-limit), so Shopify never gets two customizations of our function (the second would keep
 * hiding COD whatever the settings say). The lease is given back once the outcome is recorded.
 */
async function createOnce(shop: EnforcementShop, input: Record<string, unknown>): Promise<Attempt | "made_elsewhere"> {
  const lease = await hitRateLimit(createLease(shop), 1, CREATE_LEASE_SECONDS);
  // Every try counts one and takes its one back, so the lease is free again once its holder is done.
  if (!lease.allowed) {
    await releaseRateLimit(createLease(shop), lease);
    return "made_elsewhere";
  }
  try {
    // A sync that held the lease before this one may have made it already (this sync's row was read
    // before that): the id it recorded is the customization to update, never a reason to make another.
    const row = await prisma.shop.findUnique({ where: { id: shop.id }, select: { paymentCustomizationId: true } });
    if (row?.paymentCustomizationId && row.paymentCustomizationId !== shop.paymentCustomizationId) return "made_elsewhere";
    const outcome = await create(shop.domain, input);
    if (outcome.ok) {
      await prisma.shop.update({ where: { id: shop.id }, data: { paymentCustomizationId: outcome.id } });
      forgetShop(shop.domain);
    }
    return outcome;
  } finally {
    await releaseRateLimit(createLease(shop), lease);
  }
}

/** The id the lease holder records, waited for a few seconds (null: it did not arrive in time). */
async function idMadeElsewhere(shop: EnforcementShop): Promise<string | null> {
  for (let i = 0; i < 50; i++) {
    const row = await prisma.shop.findUnique({ where: { id: shop.id }, select: { paymentCustomizationId: true } });
    if (row?.paymentCustomizationId && row.paymentCustomizationId !== shop.paymentCustomizationId) return row.paymentCustomizationId;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

function outcomeOf(reply: z.infer<typeof customization>, errors: z.infer<typeof userErrors>): Attempt {
  if (!errors.length && reply) return { ok: true, ...reply };
  const notFound = errors.some((e) => e.code === "PAYMENT_CUSTOMIZATION_NOT_FOUND" || /not found|could not find|does not exist/i.test(e.message));
  return { ok: false, error: `user_errors: ${errors.map((e) => e.message).join("; ") || "no customization returned"}`.slice(0, 500), notFound };
}

async function create(shop: string, input: Record<string, unknown>): Promise<Attempt> {
  const result = await shopifyGraphql<unknown>("admin", shop, PAYMENT_CUSTOMIZATION_CREATE, { variables: { input } });
  if (!result.ok) return { ok: false, error: `${result.cause}: ${result.detail}`.slice(0, 500) };
  const parsed = createReply.safeParse(result.data);
  if (!parsed.success) return { ok: false, error: `invalid_response: ${parsed.error.message.slice(0, 200)}` };
  return outcomeOf(parsed.data.paymentCustomizationCreate.paymentCustomization, parsed.data.paymentCustomizationCreate.userErrors);
}

async function update(shop: string, id: string, input: Record<string, unknown>): Promise<Attempt> {
  const result = await shopifyGraphql<unknown>("admin", shop, PAYMENT_CUSTOMIZATION_UPDATE, { variables: { id, input } });
  if (!result.ok) return { ok: false, error: `${result.cause}: ${result.detail}`.slice(0, 500) };
  const parsed = updateReply.safeParse(result.data);
  if (!parsed.success) return { ok: false, error: `invalid_response: ${parsed.error.message.slice(0, 200)}` };
  return outcomeOf(parsed.data.paymentCustomizationUpdate.paymentCustomization, parsed.data.paymentCustomizationUpdate.userErrors);
}

export type EnforcementState =
  | { state: "active"; id: string; syncedAt: string | null; readyBy: "theme" | "merchant" }
  | { state: "off"; why: "setting_off"; id: string | null }
  | { state: "waiting_for_storefront"; updating: boolean }
  | { state: "paused"; why: PauseReason; codHidden: boolean; updating: boolean }
  | { state: "resuming"; id: string }
  | { state: "not_set_up"; error: string | null }
  | { state: "error"; error: string; id: string | null };

/**
 * What the admin shows about checkout enforcement: active (Shopify runs our function and it hides
 * COD for unverified carts; `readyBy` says what showed shoppers can verify), off by the merchant's
 * setting, waiting for the storefront (the app's block is not on the live theme and the merchant has
 * not confirmed it: nothing is hidden), paused (the app cannot verify now; whether
 * COD is hidden is what Shopify last accepted, `updating` while a re-sync is due), resuming (can verify
 * again, the re-sync is due), not set up yet, or the last save failed.
 */
export function enforcementState(
  shop: Pick<
    Shop,
    | "enforceAtCheckout"
    | "keepCodHiddenWhenPaused"
    | "paymentCustomizationId"
    | "paymentCustomizationEnabled"
    | "paymentCustomizationError"
    | "paymentCustomizationSyncedAt"
    | "storefrontReadyAt"
    | "storefrontReadyBy"
  >,
  pause: PauseReason | null,
): EnforcementState {
  const id = shop.paymentCustomizationId;
  if (shop.paymentCustomizationError) return id ? { state: "error", error: shop.paymentCustomizationError, id } : { state: "not_set_up", error: shop.paymentCustomizationError };
  if (!shop.enforceAtCheckout) return { state: "off", why: "setting_off", id };
  const readyBy = storefrontReadiness(shop);
  // Shopify may still hide COD from before (a sync is due): `updating` says so.
  if (!readyBy) return { state: "waiting_for_storefront", updating: Boolean(id) && shop.paymentCustomizationEnabled };
  if (pause) {
    const codHidden = Boolean(id) && shop.paymentCustomizationEnabled;
    return { state: "paused", why: pause, codHidden, updating: codHidden !== codHiddenAtCheckout(shop, pause) };
  }
  if (!id) return { state: "not_set_up", error: null };
  return shop.paymentCustomizationEnabled
    ? { state: "active", id, syncedAt: shop.paymentCustomizationSyncedAt?.toISOString() ?? null, readyBy }
    : { state: "resuming", id };
}

/** enforcementState with the shop's pause read now (one sum over this month's rows). */
export async function currentEnforcementState(shop: Parameters<typeof enforcementState>[0] & Parameters<typeof verificationStatus>[0]): Promise<EnforcementState> {
  return enforcementState(shop, (await verificationStatus(shop)).pause);
}
