import type { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";

type PollingStorage = SessionStorage & { isReady(): Promise<boolean> };

/**
 * `PrismaSessionStorage` checks for its table once, when it is constructed, and if the database is
 * unreachable at that moment it refuses every later call until the process restarts. This wrapper
 * asks it to check again (`isReady()`, one query) whenever a call fails that way, so the app recovers
 * by itself once the database is back; until then the call fails with the storage's own error,
 * which the routes answer as 503 `unavailable`.
 */
export class RecoveringSessionStorage implements SessionStorage {
  private rechecking: Promise<boolean> | null = null;

  constructor(private readonly inner: PollingStorage) {}

  storeSession(session: Session) {
    return this.run(() => this.inner.storeSession(session));
  }
  loadSession(id: string) {
    return this.run(() => this.inner.loadSession(id));
  }
  deleteSession(id: string) {
    return this.run(() => this.inner.deleteSession(id));
  }
  deleteSessions(ids: string[]) {
    return this.run(() => this.inner.deleteSessions(ids));
  }
  findSessionsByShop(shop: string) {
    return this.run(() => this.inner.findSessionsByShop(shop));
  }

  private async run<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!isNotReady(error)) throw error;
      // One re-check at a time, shared by the requests that fail together.
      this.rechecking ??= this.inner.isReady().finally(() => (this.rechecking = null));
      if (!(await this.rechecking)) throw error;
      return call();
    }
  }
}

function isNotReady(error: unknown): boolean {
  const name = (error as object | null)?.constructor?.name;
  return name === "MissingSessionTableError" || name === "MissingSessionStorageError";
}
