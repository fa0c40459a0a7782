/**
 * The key a client's requests are counted under: its IP address as Cloudflare states it in
 * `CF-Connecting-IP`. Cloudflare sets that header on every request it passes to the Worker and replaces any
 * value the client sent, so on Cloudflare it cannot be forged; the local server sets it the same way
 * (packages/edge-platform/src/local-server/host-guard.ts). An IPv6 client is counted by its /64: one subscriber is
 * given a whole /64 and can pick any address in it, so a single address would let one client reset its
 * count at will. Without the header (a request Cloudflare did not pass on), every such request shares one
 * key: counted together rather than not at all.
 */
export function clientKey(connectingIp: string | null): string {
  const address = connectingIp?.trim().toLowerCase() ?? "";
  if (isIpv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return UNKNOWN_CLIENT;
  // An IPv4 client written as IPv6 (::ffff:192.0.2.1) is that IPv4 client.
  const mapped = ipv4Mapped(groups);
  if (mapped) return mapped;
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/** The key of requests with no usable client address. */
const UNKNOWN_CLIENT = "unknown";

function isIpv4(address: string): boolean {
  const parts = address.split(".");
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

/** The eight 16-bit groups of an IPv6 address, each as lower-case hex without leading zeros; undefined when it is not one. */
function ipv6Groups(address: string): string[] | undefined {
  if (!address.includes(":") || address.split("::").length > 2) return undefined;
  let text = address;
  // A trailing dotted IPv4 part (::ffff:192.0.2.1) is two groups.
  const dotted = text.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [, head = "", ipv4 = ""] = dotted;
    if (!isIpv4(ipv4)) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = ipv4.split(".").map(Number);
    text = `${head}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = 8 - headGroups.length - tailGroups.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...tailGroups];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.map((group) => Number.parseInt(group, 16).toString(16));
}

function ipv4Mapped(groups: string[]): string | undefined {
  if (groups.slice(0, 5).some((group) => group !== "0") || groups[5] !== "ffff") return undefined;
  const high = Number.parseInt(groups[6] ?? "0", 16);
  const low = Number.parseInt(groups[7] ?? "0", 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}
