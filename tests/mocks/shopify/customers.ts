import { OPERATIONS } from "../../../app/core/shopify/operations";
import type { FakeShopify, Handler } from "./server";

/**
 * The shop's customers as the Admin `customers` search sees them: `phone:"+1..." OR phone:"+2..."`
 * finds the customers whose phone is one of those numbers. Their tags live in the same map the other
 * stores use, so `tagsRemove` (FakeEnforcementStore) takes a tag off a customer as off an order.
 */
export class FakeCustomerStore {
  constructor(
    readonly customers: { id: string; phone: string | null }[],
    readonly tagged: Map<string, Set<string>>,
  ) {}

  tagsOf(id: string): string[] {
    return [...(this.tagged.get(id) ?? [])];
  }

  search(): Handler {
    return (call) => {
      const query = String(call.variables.query ?? "");
      const phones = new Set([...query.matchAll(/phone:"?(\+?\d+)"?/g)].map((m) => m[1]));
      const nodes = this.customers.filter((c) => c.phone && phones.has(c.phone)).map((c) => ({ id: c.id, phone: c.phone, tags: this.tagsOf(c.id) }));
      return { data: { customers: { nodes } } };
    };
  }

  install(fake: FakeShopify): FakeShopify {
    return fake.on(OPERATIONS.customersByPhone, this.search(), "admin");
  }
}
