// Whether a connection's address is one of a list of addresses and CIDR ranges (the trusted
// proxies of SWITCHYARD_TRUSTED_PROXIES, already validated by config.ts).
import { BlockList, isIPv4 } from 'node:net';

const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

export function addressMatcher(entries: readonly string[]): (address: string) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    // A dual-stack socket reports an IPv4 client as ::ffff:a.b.c.d.
    const plain = IPV4_MAPPED.exec(address)?.[1] ?? address;
    return list.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
  };
}
