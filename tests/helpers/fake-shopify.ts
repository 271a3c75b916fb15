import { FakeShopify } from "../mocks/shopify/server";
import { redirectShopifyApi } from "~/core/shopify/api-origin.server";

/**
 * Starts a fake Shopify for this test file and points the library's API clients at it.
 * Calls are recorded (fake.calls / fake.callsTo(name)) and cleared before each test.
 */
export function useFakeShopify(setup?: (fake: FakeShopify) => void): FakeShopify {
  const fake = new FakeShopify();
  setup?.(fake);
  beforeAll(async () => {
    redirectShopifyApi(await fake.start());
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    redirectShopifyApi(null);
    await fake.stop();
  });
  return fake;
}
