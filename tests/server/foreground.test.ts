import { createRequestHandler } from "@remix-run/node";
import { requestFinished, requestStarted, requestsInFlight } from "~/core/jobs/foreground.server";
import { giveWayToRequests } from "~/core/jobs/worker.server";
import type { ResourceRouteModule } from "~/server-build";
import { createAppHandler } from "../../app/server/resource-routes.mjs";
import { buildWith } from "../helpers/resource-route-build";

/**
 * The job worker gives way to the requests being answered (app/core/jobs/foreground.server.ts): the server's
 * handler counts each request while the app works on it, whichever way it goes (the fixed-path shortcut or
 * Remix's handler, an answer or a thrown error), and the worker's next claim waits for a moment with none,
 * for at most three seconds.
 */
describe("requests in flight, as the job worker sees them", () => {
  for (const shortcut of [true, false]) {
    const way = shortcut ? "the fixed-path shortcut" : "Remix's handler";
    it(`counts a request while its route runs, through ${way}, and forgets it after an answer or an error`, async () => {
      const seen: number[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const module: ResourceRouteModule = {
        action: async () => {
          seen.push(requestsInFlight());
          await held;
          return Response.json({ ok: true });
        },
        loader: async () => {
          throw new Error("boom");
        },
      };
      const build = buildWith("/under-test", module, shortcut, { requestStarted, requestFinished });
      const handle = createAppHandler(build, createRequestHandler(build, "production"));
      const post = () => handle(new Request("https://app.example.com/under-test", { method: "POST", body: "{}" }), "/under-test");
      const before = requestsInFlight();
      const answers = Promise.all([post(), post()]);
      await vi.waitFor(() => expect(seen).toHaveLength(2));
      expect(requestsInFlight()).toBe(before + 2);
      release();
      expect((await answers).map((r: Response) => r.status)).toEqual([200, 200]);
      expect(requestsInFlight()).toBe(before);
      // The route's error is logged as unhandled (app/entry.server.tsx): kept out of the test's output.
      const quiet = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      const failed: Response = await handle(new Request("https://app.example.com/under-test"), "/under-test").finally(() => quiet.mockRestore());
      expect(failed.status).toBe(500);
      expect(requestsInFlight()).toBe(before);
    });
  }

  describe("the worker's next claim", () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    const watch = () => {
      const state = { done: false };
      void giveWayToRequests().then(() => (state.done = true));
      return state;
    };

    it("waits while a request is in flight and goes as soon as it is answered", async () => {
      requestStarted();
      const claim = watch();
      await vi.advanceTimersByTimeAsync(300);
      expect(claim.done).toBe(false);
      requestFinished();
      await vi.advanceTimersByTimeAsync(10);
      expect(claim.done).toBe(true);
    });

    it("waits at most three seconds under a load that never pauses", async () => {
      requestStarted();
      try {
        const claim = watch();
        await vi.advanceTimersByTimeAsync(2_990);
        expect(claim.done).toBe(false);
        await vi.advanceTimersByTimeAsync(20);
        expect(claim.done).toBe(true);
      } finally {
        requestFinished();
      }
    });

    it("does not wait when nothing is in flight", async () => {
      const claim = watch();
      await vi.advanceTimersByTimeAsync(0);
      expect(claim.done).toBe(true);
    });
  });
});
