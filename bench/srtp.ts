// What SRTP costs the media plane per forwarded packet, with werift patched (patches/: one AES-128-ECB
// cipher per session key makes the AES-CM keystream, instead of an aes-128-ctr cipher made for every
// packet) and with werift's own code (an unpatched copy, bench/lib/werift-unpatched.ts), in
// alternating rounds of one run, so that the machine's noise falls on both sides:
//
// 1. crypto: the plane's own work on each forwarded packet, in this process: a page's SRTP packet
//    authenticated and decrypted (as it arrives), then encrypted again for one receiver (as it leaves).
//    Video packets of 1200 bytes of payload and audio packets of 100, with the header extensions a
//    browser sends; the sequence numbers cross a rollover. Figures: packets per CPU-second of this
//    process (one core), and the ratio per round.
// 2. plane (--plane): the media plane in its own process forwarding one page's video to --viewers
//    pages (bench/lib/forwarding.ts, as bench/media-network.ts does), a plane with the patched werift
//    against a plane importing the unpatched copy; the plane's CPU per 1000 packets it forwarded.
//    Run from the built package (npm run build: dist/src), as the emulator runs.
//
//   nice -n 10 npx tsx bench/srtp.ts [--rounds 5] [--ms 1500] [--plane] [--plane-rounds 3] [--seconds 8] [--rate 200] [--viewers 10]
import { cpuUsage } from 'node:process';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import * as patched from 'werift';
import { UNPATCHED_HOOK, unpatchedWerift } from './lib/werift-unpatched.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    ms: { type: 'string', default: '1500' },
    plane: { type: 'boolean', default: false },
    'plane-rounds': { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    rate: { type: 'string', default: '200' },
    viewers: { type: 'string', default: '10' },
  },
});
const ROUNDS = Number(args.rounds);
const MS = Number(args.ms);

type Werift = typeof patched;
const unpatchedUrl = unpatchedWerift();
const unpatched = (await import(unpatchedUrl)) as Werift;
const sides: [string, Werift][] = [
  ['werift 0.24.4 as published', unpatched],
  ['werift patched (patches/)', patched],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);

// Keys as a DTLS handshake gives them: 16 bytes of master key and 14 of salt each way.
const keys = {
  localMasterKey: Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex'),
  localMasterSalt: Buffer.from('a0a1a2a3a4a5a6a7a8a9aaabacad', 'hex'),
  remoteMasterKey: Buffer.from('101112131415161718191a1b1c1d1e1f', 'hex'),
  remoteMasterSalt: Buffer.from('b0b1b2b3b4b5b6b7b8b9babbbcbd', 'hex'),
};
const swap = {
  localMasterKey: keys.remoteMasterKey,
  localMasterSalt: keys.remoteMasterSalt,
  remoteMasterKey: keys.localMasterKey,
  remoteMasterSalt: keys.localMasterSalt,
};

/** A browser's packets of one kind: RTP headers with one-byte extensions (mid, abs-send-time, transport-wide cc; audio level for audio). */
function packets(w: Werift, kind: 'video' | 'audio', count: number, firstSeq: number): { header: InstanceType<Werift['RtpHeader']>; payload: Buffer }[] {
  const out = [];
  for (let i = 0; i < count; i++) {
    const seq = (firstSeq + i) & 0xffff;
    const extensions = [
      { id: 1, payload: Buffer.from('0') },
      { id: 2, payload: Buffer.from([0x12, 0x34, (i * 7) & 0xff]) },
      { id: 3, payload: Buffer.from([(i >> 8) & 0xff, i & 0xff]) },
      ...(kind === 'audio' ? [{ id: 4, payload: Buffer.from([0x80 | 30]) }] : []),
    ];
    const header = new w.RtpHeader({
      payloadType: kind === 'video' ? 96 : 111,
      sequenceNumber: seq,
      timestamp: i * (kind === 'video' ? 3000 : 960),
      ssrc: kind === 'video' ? 0x1a2b3c4d : 0x5e6f7081,
      marker: kind === 'audio' || i % 3 === 2,
      extension: true,
      extensionProfile: 0xbede,
      extensions,
    });
    const payload = Buffer.alloc(kind === 'video' ? 1200 : 100);
    for (let b = 0; b < payload.length; b++) payload[b] = (b * 31 + i) & 0xff;
    out.push({ header, payload });
  }
  return out;
}

/** The page's side: its packets encrypted by its own session (the plane's remote keys are the page's local ones). */
function fromPage(w: Werift, kind: 'video' | 'audio'): Buffer[] {
  const page = new w.SrtpSession({ keys: swap, profile: w.ProtectionProfileAes128CmHmacSha1_80 });
  // 2048 packets from 64512: the sequence numbers wrap to 0 a thousand packets in (rollover counter 1).
  return packets(w, kind, 2048, 64_512).map(({ header, payload }) => page.encrypt(payload, header));
}

/** The plane's work on `srtp` for MS of CPU time: decrypt each (a fresh session per pass, as the sequence starts over), encrypt it for one receiver. Packets per CPU-second. */
function forward(w: Werift, srtp: Buffer[]): number {
  let count = 0;
  const t0 = cpuUsage();
  let spent = 0;
  while (spent < MS * 1000) {
    const inbound = new w.SrtpSession({ keys, profile: w.ProtectionProfileAes128CmHmacSha1_80 });
    const outbound = new w.SrtpSession({ keys, profile: w.ProtectionProfileAes128CmHmacSha1_80 });
    for (const packet of srtp) {
      const clear = inbound.decrypt(packet);
      const header = w.RtpHeader.deSerialize(clear);
      outbound.encrypt(clear.subarray(header.payloadOffset), header);
    }
    count += srtp.length;
    const used = cpuUsage(t0);
    spent = used.user + used.system;
  }
  return count / (spent / 1e6);
}

/** Both builds must give the same bytes for the same packets and keys, both ways, SRTCP too. */
function sameBytes(): void {
  for (const kind of ['video', 'audio'] as const) {
    const [a, b] = [fromPage(unpatched, kind), fromPage(patched, kind)];
    if (a.some((p, i) => !p.equals(b[i]!))) throw new Error(`the patched werift encrypts ${kind} differently`);
    const dec = (w: Werift) => {
      const s = new w.SrtpSession({ keys, profile: w.ProtectionProfileAes128CmHmacSha1_80 });
      return a.map((p) => s.decrypt(p));
    };
    const [da, db] = [dec(unpatched), dec(patched)];
    if (da.some((p, i) => !p.equals(db[i]!))) throw new Error(`the patched werift decrypts ${kind} differently`);
  }
  const rtcp = (w: Werift) => {
    const s = new w.SrtcpSession({ keys, profile: w.ProtectionProfileAes128CmHmacSha1_80 });
    const sr = Buffer.from('80c80006' + '1a2b3c4d' + '00'.repeat(20), 'hex');
    return Array.from({ length: 5 }, () => s.encrypt(sr));
  };
  const [ra, rb] = [rtcp(unpatched), rtcp(patched)];
  if (ra.some((p, i) => !p.equals(rb[i]!))) throw new Error('the patched werift encrypts SRTCP differently');
}

async function crypto(): Promise<string[]> {
  sameBytes();
  const lines = [
    `The plane's SRTP work per forwarded packet (authenticate and decrypt the page's packet, encrypt it for one receiver), in this process, ${ROUNDS} rounds of ${MS} ms of CPU per side and kind, alternating; packets per CPU-second (one core):`,
    '',
    '| Packets | werift as published (median) | patched (median) | patched ÷ published (median; each round) | load average (each round) |',
    '|---|---|---|---|---|',
  ];
  for (const kind of ['video', 'audio'] as const) {
    const srtp = new Map(sides.map(([name, w]) => [name, fromPage(w, kind)]));
    const rates = new Map<string, number[]>(sides.map(([name]) => [name, []]));
    const ratios: number[] = [];
    const loads: string[] = [];
    // One unmeasured pass of each first: both JIT-compiled before the rounds.
    for (const [name, w] of sides) forward(w, srtp.get(name)!);
    for (let r = 0; r < ROUNDS; r++) {
      const got = new Map<string, number>();
      for (const [name, w] of r % 2 === 0 ? sides : [...sides].reverse()) got.set(name, forward(w, srtp.get(name)!));
      for (const [name, v] of got) rates.get(name)!.push(v);
      ratios.push(got.get(sides[1]![0])! / got.get(sides[0]![0])!);
      loads.push(load());
      console.error(`${kind} round ${r + 1}: ${[...got].map(([n, v]) => `${n} ${v.toFixed(0)}/s`).join(', ')}; load ${load()}`);
    }
    const label = kind === 'video' ? 'video, 1200 B payload' : 'audio, 100 B payload';
    lines.push(
      `| ${label} | ${median(rates.get(sides[0]![0])!).toFixed(0)} | ${median(rates.get(sides[1]![0])!).toFixed(0)} | ${median(ratios).toFixed(2)}× (${ratios.map((x) => x.toFixed(2)).join(', ')}) | ${loads.join(', ')} |`,
    );
  }
  return lines;
}

async function plane(): Promise<string[]> {
  const { forwardingRound } = await import('./lib/forwarding.js');
  const rounds = Number(args['plane-rounds']);
  const options = { seconds: Number(args.seconds), rate: Number(args.rate), viewers: Number(args.viewers) };
  const network = { host: '127.0.0.1', ports: 0 as const, announce: undefined };
  const modes: { name: string; env: Record<string, string> }[] = [
    {
      name: 'werift 0.24.4 as published',
      env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${UNPATCHED_HOOK}`.trim(), WERIFT_UNPATCHED: unpatchedUrl },
    },
    { name: 'werift patched (patches/)', env: {} },
  ];
  const results = new Map<string, { perThousand: number; delivered: number }[]>(modes.map((m) => [m.name, []]));
  const ratios: number[] = [];
  const loads: string[] = [];
  for (let r = 0; r < rounds; r++) {
    const got = new Map<string, number>();
    for (const mode of r % 2 === 0 ? modes : [...modes].reverse()) {
      const f = await forwardingRound(network, `${r}-${mode.name.length}`, { ...options, env: mode.env });
      results.get(mode.name)!.push({ perThousand: f.cpuPerThousand, delivered: f.delivered });
      got.set(mode.name, f.cpuPerThousand);
      console.error(
        `plane round ${r + 1}, ${mode.name}: ${f.cpuPerThousand.toFixed(1)} ms per 1000 packets, ${(f.delivered * 100).toFixed(1)}% delivered; load ${load()}`,
      );
    }
    ratios.push(got.get(modes[1]!.name)! / got.get(modes[0]!.name)!);
    loads.push(load());
  }
  const lines = [
    `The media plane in its own process forwarding one page's video (${options.rate} packets/s of 1 kB) to ${options.viewers} pages (werift peers in the bench's process), ${options.seconds} s per round, ${rounds} rounds each, alternating: the plane's CPU per 1000 packets forwarded (fewer is better) and packets forwarded per CPU-second:`,
    '',
    '| Plane | CPU ms per 1000 packets (median; each round) | Packets per CPU-second (median) | Delivered (median) |',
    '|---|---|---|---|',
  ];
  for (const [name, fs] of results) {
    const m = median(fs.map((f) => f.perThousand));
    lines.push(
      `| ${name} | ${m.toFixed(2)} (${fs.map((f) => f.perThousand.toFixed(2)).join(', ')}) | ${(1e6 / m).toFixed(0)} | ${(median(fs.map((f) => f.delivered)) * 100).toFixed(1)}% |`,
    );
  }
  lines.push(
    '',
    `Patched ÷ published, CPU per packet: ${median(ratios).toFixed(2)} (each round ${ratios.map((x) => x.toFixed(2)).join(', ')}); load average after each round ${loads.join(', ')}.`,
  );
  return lines;
}

console.error(
  `load average at the start: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
const out = [...(await crypto()), ''];
if (args.plane) out.push(...(await plane()), '');
out.push(
  `Load average at the end: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}.`,
);
console.log(out.join('\n'));
process.exit(0);
