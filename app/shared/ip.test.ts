import { canonicalIp, ipNetwork } from "./ip";

describe("ipNetwork", () => {
  it("an IPv4 address's /24", () => {
    expect(ipNetwork("203.0.113.7")).toBe("203.0.113.0/24");
    expect(ipNetwork("203.0.113.250")).toBe(ipNetwork("203.0.113.1"));
    expect(ipNetwork("203.0.114.1")).not.toBe(ipNetwork("203.0.113.1"));
  });
  it("an IPv6 address's /48, whatever its compression", () => {
    const a = ipNetwork(canonicalIp("2001:db8:abcd:12::1"));
    expect(a).toBe("2001:db8:abcd::/48");
    expect(ipNetwork(canonicalIp("2001:0db8:abcd:ffff:1:2:3:4"))).toBe(a);
    expect(ipNetwork(canonicalIp("2001:db8::1"))).toBe("2001:db8:0::/48");
    expect(ipNetwork(canonicalIp("2001:db8:abce::1"))).not.toBe(a);
    expect(ipNetwork(canonicalIp("::1"))).toBe("0:0:0::/48");
  });
  it("an IPv4-mapped address counts as its IPv4 network; junk has none", () => {
    expect(ipNetwork(canonicalIp("::ffff:203.0.113.9"))).toBe("203.0.113.0/24");
    expect(ipNetwork(null)).toBeNull();
    expect(ipNetwork("not an ip")).toBeNull();
  });
});
