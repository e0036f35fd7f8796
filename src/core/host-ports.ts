// Ports of this machine for a container engine to publish, taken outside the range the machine
// hands out by itself (a listen on port 0, the local end of a connection).
//
// Why not a port the kernel picks: podman (netavark) forwards a published port to its container
// with NAT rules for this machine's own connections too, and takes them away only after the
// container has let the port go: some 0.3 s after a stop began, the port was free while its rules
// still sent 127.0.0.1:<port> into the stopped container for another 0.5 s, and longer on a busy
// machine. A server that the kernel gave that port in the meantime (one of the test's own, started
// on port 0) had its connections refused or sent to the container. The kernel never hands out a
// port outside its range, so a port published from there meets no such server.
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { unseededFraction } from './ids.js';

export interface PortRange {
  from: number;
  to: number;
}

/** Where Linux says its range is. */
const LINUX_RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';

/** IANA's dynamic ports: the range of macOS and Windows, and the guess where Linux's file cannot be read. */
const DYNAMIC_PORTS: PortRange = { from: 49152, to: 65535 };

/**
 * Below the range, ports from here: clear of the ports services commonly listen on (databases,
 * development servers) and under 30000, where Kubernetes' node ports start.
 */
export const BELOW_RANGE: PortRange = { from: 20000, to: 29999 };

/** A side of the range with fewer ports than this is not used: a random pick there would meet taken ports too often. */
const ENOUGH = 1000;

/** How many ports pickHostPort() tries outside the machine's range, and then of the kernel's picks. */
const ATTEMPTS = 50;

/** The range of ports the machine hands out by itself. */
export function ephemeralRange(read: () => string = () => readFileSync(LINUX_RANGE_FILE, 'utf8')): PortRange {
  let text: string;
  try {
    text = read();
  } catch {
    return DYNAMIC_PORTS;
  }
  const [from, to] = text.trim().split(/\s+/).map(Number);
  if (from === undefined || to === undefined || !Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to > 65535 || to < from) return DYNAMIC_PORTS;
  return { from, to };
}

/**
 * Where to take ports from, given the machine's range: BELOW_RANGE up to the range's start, else
 * above the range's end; null when neither has room (the kernel then picks, as it would anyway).
 */
export function portsOutside(range: PortRange): PortRange | null {
  const below = { from: BELOW_RANGE.from, to: Math.min(BELOW_RANGE.to, range.from - 1) };
  if (below.to - below.from + 1 >= ENOUGH) return below;
  const above = { from: Math.max(range.to + 1, BELOW_RANGE.from), to: 65535 };
  if (above.to - above.from + 1 >= ENOUGH) return above;
  return null;
}

/** Whether `port` is free on every interface, for TCP and UDP (a media port is both); 0 asks the kernel for one. Answers the port, or null. */
export async function freeOnEveryInterface(port: number): Promise<number | null> {
  const server = createServer();
  const tcp = await new Promise<number | null>((resolve) => {
    server.once('error', () => resolve(null));
    server.listen(port, () => resolve((server.address() as { port: number }).port));
  });
  if (tcp === null) return null;
  const udp = createSocket('udp4');
  const free = await new Promise<boolean>((resolve) => {
    udp.once('error', () => resolve(false));
    udp.bind(tcp, () => resolve(true));
  });
  await new Promise<void>((resolve) => udp.close(() => resolve()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return free ? tcp : null;
}

/**
 * A port of this machine free for TCP and UDP on every interface, for an engine to publish: a
 * random one outside the machine's own range (see the top of the file), or, when none is free
 * there after a few tries or the range leaves no room, one the kernel picks. `except`: ports
 * already picked for the same container (each was let go again after its check).
 */
export async function pickHostPort(options: { range?: PortRange; random?: () => number; except?: ReadonlySet<number> } = {}): Promise<number> {
  const { range = ephemeralRange(), random = unseededFraction, except = new Set<number>() } = options;
  const outside = portsOutside(range);
  if (outside !== null) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const candidate = outside.from + Math.floor(random() * (outside.to - outside.from + 1));
      if (except.has(candidate)) continue;
      const port = await freeOnEveryInterface(candidate);
      if (port !== null) return port;
    }
  }
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = await freeOnEveryInterface(0);
    if (port !== null && !except.has(port)) return port;
  }
  throw new Error('no port of this machine was free for both TCP and UDP');
}

/** Picks for one container: each port differs from the ones picked before it and from `named` (ports the container's settings name). */
export function hostPortPicker(options: { range?: PortRange; random?: () => number; named?: Iterable<number> } = {}): () => Promise<number> {
  const picked = new Set<number>(options.named);
  const range = options.range ?? ephemeralRange();
  return async () => {
    const port = await pickHostPort({ range, random: options.random, except: picked });
    picked.add(port);
    return port;
  };
}
