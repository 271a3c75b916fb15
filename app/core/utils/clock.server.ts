/**
 * The business clock: code expiry, rate-limit windows, token lifetimes. Tests move it with
 * `vi.spyOn(clock, "now")` without touching the wall clock that signature timestamps are checked against.
 */
export const clock = {
  now(): Date {
    return new Date();
  },
};
