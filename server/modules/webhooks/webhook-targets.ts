import { lookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/*
 * Where a webhook may post. A hook's URL is typed by an administrator but fetched by the server,
 * inside the plant's network: without a rule, a hook could make the server post to itself, to
 * another system on the network or to a cloud metadata address (server-side request forgery),
 * and read its answer's status in the delivery log. EU GMP Annex 11 §12.1 (physical and logical
 * controls restrict access to the system) is the rule behind it.
 *
 * WEBHOOK_ALLOWED_HOSTS empty: any host whose addresses are public. Set: only the hosts it lists
 * (names, IP addresses, or *.domain for the names under a domain), and those whatever their
 * addresses. The host is checked when a hook is saved, and every address it resolves to on
 * each delivery, at the moment of connecting, since DNS may answer differently later.
 */

/** Loopback, private, link-local (metadata), carrier-grade NAT, multicast and reserved ranges. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv6');

/** True for an address no webhook may reach unless its host is listed. */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The host of a URL as it is connected to: lower case, an IPv6 address without brackets. */
export const hostOf = (url: string) => new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');

function isListed(host: string, allowed: readonly string[]): boolean {
  return allowed.some((p) => (p.startsWith('*.') ? host.endsWith(p.slice(1)) : host === p));
}

const LIST_IT = 'list the host in WEBHOOK_ALLOWED_HOSTS to post there';

/** Why a URL's host may not be posted to, before any name is resolved; null when it may. */
export function hostProblem(url: string, allowed: readonly string[] | undefined): string | null {
  const host = hostOf(url);
  if (allowed)
    return isListed(host, allowed)
      ? null
      : `${host} is not a host webhooks may post to (WEBHOOK_ALLOWED_HOSTS)`;
  if (isIP(host) !== 0 && isInternalAddress(host))
    return `${host} is a loopback, private or link-local address: ${LIST_IT}`;
  return null;
}

/** Why an address a host resolved to may not be posted to; null when it may. */
function addressProblem(
  host: string,
  address: string,
  allowed: readonly string[] | undefined,
): string | null {
  if (allowed) return null;
  return isInternalAddress(address)
    ? `${host} resolves to ${address}, a loopback, private or link-local address: ${LIST_IT}`
    : null;
}

/** An error of a refused connection, named like the system's errors in the delivery log. */
export class TargetRefused extends Error {
  code = 'EWEBHOOKTARGET';
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that refuses a host any of whose addresses may not be posted to:
 * the addresses checked are the ones the connection then uses, so a later DNS answer cannot
 * slip an internal address in between the check and the connection.
 */
export function guardedLookup(allowed: readonly string[] | undefined) {
  return (hostname: string, options: LookupOptions, done: LookupCallback) => {
    const all: LookupAllOptions = { ...options, all: true };
    lookup(hostname, all, (error, addresses) => {
      if (error) return done(error, []);
      const host = hostname.toLowerCase();
      const problem = addresses
        .map((a) => addressProblem(host, a.address, allowed))
        .find((p) => p !== null);
      if (problem) return done(new TargetRefused(problem), []);
      if (options.all) return done(null, addresses);
      const [first] = addresses;
      if (!first) return done(new TargetRefused(`${host} has no address`), []);
      return done(null, first.address, first.family);
    });
  };
}

/**
 * The check when a hook is saved: the host, then what its name resolves to now. A name that
 * does not resolve here is kept (it may resolve on the plant's network); every delivery checks
 * its addresses again.
 */
export async function targetProblem(
  url: string,
  allowed: readonly string[] | undefined,
): Promise<string | null> {
  const first = hostProblem(url, allowed);
  if (first || allowed) return first;
  const host = hostOf(url);
  if (isIP(host) !== 0) return null;
  const addresses = await new Promise<LookupAddress[]>((resolve) => {
    const timer = setTimeout(() => resolve([]), 3000);
    lookup(host, { all: true }, (error, found) => {
      clearTimeout(timer);
      resolve(error ? [] : found);
    });
  });
  return addresses.map((a) => addressProblem(host, a.address, allowed)).find((p) => p) ?? null;
}
