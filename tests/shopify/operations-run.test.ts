import { documentOperationNames, documentsNeverRun } from "../helpers/operations-run";

/**
 * The run's check that every one of the app's GraphQL documents ran against the fake Shopify
 * (tests/setup/global.ts) reads the operation names of the documents themselves, so a new document
 * that no test sends fails the full suite.
 */
describe("the documents a run never sent", () => {
  it("are every document when nothing ran, none when all did, and the one left out otherwise", () => {
    const all = documentOperationNames();
    expect(all.length).toBeGreaterThanOrEqual(42);
    expect(new Set(all).size).toBe(all.length);
    expect(documentsNeverRun(new Set())).toEqual([...all].sort());
    expect(documentsNeverRun(new Set(all))).toEqual([]);
    expect(documentsNeverRun(new Set(all.filter((n) => n !== "DeliveryBalanceDue")))).toEqual(["DeliveryBalanceDue"]);
  });
});
