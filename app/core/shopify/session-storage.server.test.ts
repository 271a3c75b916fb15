import { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import { CachedSessionStorage } from "./session-storage.server";

function countingStorage() {
  const rows = new Map<string, Session>();
  const calls = { load: 0 };
  const inner: SessionStorage = {
    async storeSession(s) {
      rows.set(s.id, s);
      return true;
    },
    async loadSession(id) {
      calls.load++;
      return rows.get(id);
    },
    async deleteSession(id) {
      rows.delete(id);
      return true;
    },
    async deleteSessions(ids) {
      ids.forEach((id) => rows.delete(id));
      return true;
    },
    async findSessionsByShop(shop) {
      return [...rows.values()].filter((s) => s.shop === shop);
    },
  };
  return { inner, calls };
}

const offline = (shop: string) => new Session({ id: `offline_${shop}`, shop, state: "s", isOnline: false, accessToken: "t" });

describe("CachedSessionStorage", () => {
  it("reads an offline session once within the TTL", async () => {
    const { inner, calls } = countingStorage();
    const cache = new CachedSessionStorage(inner, 60_000);
    await cache.storeSession(offline("a.myshopify.com"));
    for (let i = 0; i < 5; i++) expect((await cache.loadSession("offline_a.myshopify.com"))?.shop).toBe("a.myshopify.com");
    expect(calls.load).toBe(1);
  });

  it("forgets a session at once when it is deleted or replaced through it", async () => {
    const { inner } = countingStorage();
    const cache = new CachedSessionStorage(inner, 60_000);
    await cache.storeSession(offline("a.myshopify.com"));
    await cache.loadSession("offline_a.myshopify.com");
    await cache.deleteSession("offline_a.myshopify.com");
    expect(await cache.loadSession("offline_a.myshopify.com")).toBeUndefined();
    const replaced = offline("a.myshopify.com");
    replaced.accessToken = "new";
    await cache.storeSession(replaced);
    expect((await cache.loadSession("offline_a.myshopify.com"))?.accessToken).toBe("new");
  });

  it("reads again once the TTL has passed", async () => {
    const { inner, calls } = countingStorage();
    const cache = new CachedSessionStorage(inner, 1_000);
    await cache.storeSession(offline("a.myshopify.com"));
    const now = Date.now();
    const spy = vi.spyOn(Date, "now").mockReturnValue(now);
    await cache.loadSession("offline_a.myshopify.com");
    spy.mockReturnValue(now + 1_500);
    await cache.loadSession("offline_a.myshopify.com");
    spy.mockRestore();
    expect(calls.load).toBe(2);
  });
});
