// The sockets a process holds, as Linux shows them: its file descriptors that are sockets
// (/proc/<pid>/fd), looked up in the kernel's tables of its network namespace
// (/proc/<pid>/net/{udp,udp6,tcp,tcp6}). What the tests of the media plane read to say where its
// sockets are bound, whatever the plane itself reports.
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ProcSocket {
  protocol: 'udp' | 'tcp';
  /** The bound local address (IPv4 dotted, IPv6 in full groups). */
  address: string;
  port: number;
  /** The peer's port (0 for a UDP socket or a listener). */
  remotePort: number;
  /** TCP only: LISTEN, ESTABLISHED, … (the kernel's state names). */
  state: string | undefined;
}

const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED',
  '02': 'SYN_SENT',
  '03': 'SYN_RECV',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
};

/** The kernel's hex address (32-bit words in host order, little-endian here) as text. */
function address(hex: string): string {
  const words = hex.match(/.{8}/g)!.map((w) => w.match(/../g)!.reverse().join(''));
  if (words.length === 1)
    return words[0]!
      .match(/../g)!
      .map((b) => parseInt(b, 16))
      .join('.');
  const groups = words
    .join('')
    .match(/.{4}/g)!
    .map((g) => parseInt(g, 16).toString(16));
  const v4mapped = groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff';
  if (v4mapped) return `::ffff:${[groups[6]!, groups[7]!].flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]).join('.')}`;
  return groups.join(':');
}

/** The sockets process `pid` holds open (UDP and TCP, both families); others (unix, netlink) are left out. */
export function socketsOf(pid: number): ProcSocket[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // Closed while read.
    }
  }
  const out: ProcSocket[] = [];
  for (const table of ['udp', 'udp6', 'tcp', 'tcp6'] as const) {
    const protocol = table.startsWith('udp') ? 'udp' : 'tcp';
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || !inodes.has(cols[9]!)) continue;
      const [hexAddress, hexPort] = cols[1]!.split(':');
      out.push({
        protocol,
        address: address(hexAddress!),
        port: parseInt(hexPort!, 16),
        remotePort: parseInt(cols[2]!.split(':')[1]!, 16),
        state: protocol === 'tcp' ? TCP_STATES[cols[3]!] : undefined,
      });
    }
  }
  return out;
}

/** The ffmpeg processes on the machine that name `dir` in their arguments (the ones writing into it), by pid. */
export function ffmpegsWritingTo(dir: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if ((cmd.startsWith('ffmpeg\0') || cmd.includes('/ffmpeg\0')) && cmd.includes(dir)) pids.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** Whether a process is still there (running, or dead and not yet reaped by its parent). */
export function processExists(pid: number): boolean {
  return existsSync(`/proc/${pid}`);
}
