/**
 * The app's resource routes whose whole path is fixed (the storefront API under /proxy, the webhooks,
 * Twilio's status callback), by the path Remix serves each at, imported from the route modules
 * themselves. server.mjs calls these by exact pathname instead of going through Remix's request
 * handler, which matches every request against the whole route tree anew (a tenth of a storefront
 * request: docs/decisions/resource-route-dispatch.md); everything else goes through Remix.
 *
 * Kept by hand, and checked against app/routes/ by tests/server/resource-routes.test.ts: every route
 * file without a UI (no default export) and without a dynamic segment is listed here at its path,
 * except local mode's tools (remix.config.js LOCAL_MODE_ROUTES), which are left out of the production
 * build and reach Remix's handler.
 */
import * as addressCorrectionRequest from "~/routes/proxy.api.address-correction[.]request";
import * as addressCorrectionStatus from "~/routes/proxy.api.address-correction[.]status";
import * as ping from "~/routes/proxy.api.auth.ping";
import * as config from "~/routes/proxy.api.config";
import * as createCheckout from "~/routes/proxy.create-checkout";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as twilioStatus from "~/routes/twilio.status";
import * as appUninstalled from "~/routes/webhooks.app.uninstalled";
import * as appSubscriptionsUpdate from "~/routes/webhooks.app_subscriptions.update";
import * as customersDataRequest from "~/routes/webhooks.customers.data_request";
import * as customersRedact from "~/routes/webhooks.customers.redact";
import * as ordersCancelled from "~/routes/webhooks.orders.cancelled";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as ordersFulfilled from "~/routes/webhooks.orders.fulfilled";
import * as shopRedact from "~/routes/webhooks.shop.redact";
import * as shopUpdate from "~/routes/webhooks.shop.update";

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown;
export type ResourceRouteModule = { loader?: Handler; action?: Handler };

export const FIXED_RESOURCE_ROUTES: Readonly<Record<string, ResourceRouteModule>> = {
  "/proxy/api/address-correction.request": addressCorrectionRequest,
  "/proxy/api/address-correction.status": addressCorrectionStatus,
  "/proxy/api/auth/ping": ping,
  "/proxy/api/config": config,
  "/proxy/create-checkout": createCheckout,
  "/proxy/send-otp": sendOtp,
  "/proxy/verify-otp": verifyOtp,
  "/twilio/status": twilioStatus,
  "/webhooks/app/uninstalled": appUninstalled,
  "/webhooks/app_subscriptions/update": appSubscriptionsUpdate,
  "/webhooks/customers/data_request": customersDataRequest,
  "/webhooks/customers/redact": customersRedact,
  "/webhooks/orders/cancelled": ordersCancelled,
  "/webhooks/orders/create": ordersCreate,
  "/webhooks/orders/fulfilled": ordersFulfilled,
  "/webhooks/shop/redact": shopRedact,
  "/webhooks/shop/update": shopUpdate,
};
