// Where the media plane listens and what it tells the pages, in the words both sides of the plane's
// door share (the plane's own sockets are in plane/ice-ports.ts). Kept free of werift, so that the
// start line and the health answer can say where media listens without loading it.
//
// Media binds the address the emulator's HTTP listener binds (--host: the loopback unless told
// otherwise), on one UDP port and one TCP port shared by every transport of every room (as
// mediasoup's WebRtcServer and LiveKit's udp_port do), or, with a range, a UDP port of its own for
// each transport. The ICE candidates the pages are given name only addresses they can reach there:
// the announced one (--media-announce: the host as the page sees it, for a container), else the
// bound one, else, for a wildcard bind, the machine's own addresses.
import { isIP } from 'node:net';
import os from 'node:os';

/** One port for every transport, UDP and TCP (0: the system picks the two, each on its own), or a range that gives each transport a UDP port of its own. */
export type MediaPorts = number | { from: number; to: number };

/** The UDP ports of a placement: its one port, or every port of its range in order. */
export function portsOf(ports: MediaPorts): number[] {
  return typeof ports === 'number' ? [ports] : Array.from({ length: ports.to - ports.from + 1 }, (_, i) => ports.from + i);
}

/** How the media plane is placed on the network (from --host, --media-port and --media-announce). */
export interface MediaNetwork {
  /** The address the sockets bind (an address or a name that resolves to one). */
  host: string;
  ports: MediaPorts;
  /** The address written in the candidates instead of the bound one (undefined: the bound one). */
  announce: string | undefined;
  /** How long a transport may stay failed before it is released (real ms; --media-failed-grace-ms, 5 s unless given). */
  failedGraceMs?: number;
}

/** The media plane's placement from the emulator's options. */
export function mediaNetworkOf(config: { host: string; mediaPort: MediaPorts; mediaAnnounce: string | undefined; mediaFailedGraceMs?: number }): MediaNetwork {
  return { host: config.host, ports: config.mediaPort, announce: config.mediaAnnounce, failedGraceMs: config.mediaFailedGraceMs };
}

/** Where media listens right now (the health answer's `media.listening`). */
export interface MediaListening {
  /** The address the sockets are bound to. */
  address: string;
  /** The addresses the pages are offered (their ICE candidates). */
  candidates: string[];
  /** The UDP port every transport shares (null with a range, or while nothing is open and the system picks it). */
  udp_port: number | null;
  /** The range each transport takes a UDP port of its own from (null: one shared port). */
  udp_port_range: { from: number; to: number } | null;
  /** The TCP port every transport shares, for pages that cannot send UDP (null while nothing is open and the system picks it). */
  tcp_port: number | null;
}

export function isWildcard(address: string): boolean {
  return address === '0.0.0.0' || address === '::' || address === '[::]';
}

/** An IPv6 literal as the sockets take it (no brackets). */
export function bareAddress(address: string): string {
  return address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
}

/**
 * The addresses the pages are offered for a bind on `bound` (an address): the announced one when
 * given; the bound one; for a wildcard bind, the machine's own addresses of that family (IPv4 for
 * 0.0.0.0, both for ::), link-local ones left out, and the loopback when the machine has no other.
 */
export function candidateAddresses(bound: string, announce: string | undefined, interfaces = os.networkInterfaces()): string[] {
  if (announce) return [bareAddress(announce)];
  if (!isWildcard(bound)) return [bareAddress(bound)];
  const v6 = bound !== '0.0.0.0';
  const out: string[] = [];
  for (const infos of Object.values(interfaces))
    for (const info of infos ?? []) {
      if (info.internal) continue;
      if (info.family === 'IPv4' && !info.address.startsWith('169.254.')) out.push(info.address);
      if (v6 && info.family === 'IPv6' && !/^fe80:/i.test(info.address)) out.push(info.address);
    }
  return out.length > 0 ? [...new Set(out)] : [v6 ? '::1' : '127.0.0.1'];
}

/** What the health answer says before the plane has opened anything: the configured ports, the candidates it will offer. */
export function plannedListening(network: MediaNetwork): MediaListening {
  const range = typeof network.ports === 'number' ? null : network.ports;
  const shared = typeof network.ports === 'number' && network.ports !== 0 ? network.ports : null;
  const host = bareAddress(network.host);
  return {
    address: host,
    candidates: isIP(host) ? candidateAddresses(host, network.announce) : network.announce ? [bareAddress(network.announce)] : [host],
    udp_port: shared,
    udp_port_range: range,
    tcp_port: range ? range.from : shared,
  };
}

/** One line for the start banner: where media listens and what it is announced as. */
export function describeMediaNetwork(network: MediaNetwork): string {
  const planned = plannedListening(network);
  const ports =
    typeof network.ports !== 'number'
      ? `a UDP port of its own for each transport from ${network.ports.from}-${network.ports.to}, TCP ${network.ports.from}`
      : network.ports === 0
        ? 'one UDP and one TCP port for every transport, picked when the first page connects'
        : `UDP and TCP port ${network.ports}, shared by every transport`;
  return `${planned.address}, ${ports}; pages are offered ${planned.candidates.join(', ')}`;
}
