import { z } from "zod";
import { defineJob } from "~/core/jobs/queue.server";
import { purgeExpiredChallenges } from "~/otp/otp.server";
import { purgeExpiredRateCounters } from "~/core/rate-limit/rate-limit.server";

/** Every minute, one instance deletes the expired challenges and rate counters (a recurring job). */
export const otpPurgeJob = defineJob({
  kind: "housekeeping.otp-purge",
  payload: z.object({}),
  every: 60_000,
  run: async () => {
    await purgeExpiredChallenges();
    await purgeExpiredRateCounters();
    return { ok: true };
  },
});
