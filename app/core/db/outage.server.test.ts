import { log } from "~/core/utils/log.server";
import { noteDatabaseAnswered, noteDatabaseUnavailable } from "./outage.server";

describe("one warning per database outage", () => {
  it("a sweep that began before the outage was seen does not end it: the cut's later failures stay debug, its end is one info", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const info = vi.spyOn(log, "info").mockImplementation(() => {});
    const debug = vi.spyOn(log, "debug").mockImplementation(() => {});
    noteDatabaseUnavailable("database unavailable", {}, 10_000);
    // The worker's sweep started at 9,900 (its statements ran before the cut) and reports success at 10,050.
    noteDatabaseAnswered(9_900, 10_050);
    noteDatabaseUnavailable("job worker: database unavailable", {}, 12_000);
    noteDatabaseUnavailable("database unavailable", {}, 14_000);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(debug).toHaveBeenCalledTimes(2);
    expect(info).not.toHaveBeenCalled();
    // A sweep begun after the last failure that succeeds ends it.
    noteDatabaseAnswered(15_000, 15_100);
    expect(info).toHaveBeenCalledWith("database reachable again", { downForMs: 5_100, failuresNotLogged: 2 });
    noteDatabaseUnavailable("database unavailable", {}, 20_000);
    expect(warn).toHaveBeenCalledTimes(2);
    noteDatabaseAnswered(20_001, 20_002);
    vi.restoreAllMocks();
  });
});
