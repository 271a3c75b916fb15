/**
 * `#admin-access` in a production build (package.json "imports"): the library's authentication as it
 * is, behind a Shopify admin. A development build resolves `#admin-access` to local mode's stand-in
 * instead (app/dev/admin-access.server.ts, same exports; remix.config.js).
 */
export function withAdminAccess<T>(authenticate: T): T {
  return authenticate;
}

/** Whether the admin runs without a Shopify admin around it (never, in a production build). */
export function adminStandIn(): boolean {
  return false;
}
