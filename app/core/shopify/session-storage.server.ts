import type { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";

/**
 * Puts a small in-memory cache in front of the library's session storage.
 * Every app-proxy request loads the shop's offline session; without this that is one ORM call
 * (about a millisecond of CPU) per request. Writes and deletes through this instance invalidate at
 * once; other instances (PostgreSQL deployments) serve a cached session for at most `ttlMs`, and an
 * uninstall is also caught by the shop row's own state.
 */
export class CachedSessionStorage implements SessionStorage {
  private readonly cache = new Map<string, { session: Session | undefined; expires: number }>();

  constructor(
    private readonly inner: SessionStorage,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async storeSession(session: Session): Promise<boolean> {
    this.cache.delete(session.id);
    const ok = await this.inner.storeSession(session);
    this.cache.delete(session.id);
    return ok;
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const hit = this.cache.get(id);
    const now = Date.now();
    if (hit && hit.expires > now) return hit.session;
    const session = await this.inner.loadSession(id);
    if (this.ttlMs > 0) {
      if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
      // Only offline sessions are worth keeping; online ones are per admin user and short-lived.
      if (!session || !session.isOnline) this.cache.set(id, { session, expires: now + this.ttlMs });
    }
    return session;
  }

  async deleteSession(id: string): Promise<boolean> {
    this.cache.delete(id);
    return this.inner.deleteSession(id);
  }

  async deleteSessions(ids: string[]): Promise<boolean> {
    for (const id of ids) this.cache.delete(id);
    return this.inner.deleteSessions(ids);
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    return this.inner.findSessionsByShop(shop);
  }

  /** Drops every cached entry of a shop (used on uninstall and in tests). */
  forgetShop(shop: string): void {
    for (const [id, entry] of this.cache) {
      if (entry.session?.shop === shop || id.includes(shop)) this.cache.delete(id);
    }
  }

  clear(): void {
    this.cache.clear();
  }
}
