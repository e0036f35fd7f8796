// The RTMP ingest's bounds, with an encoder (ffmpeg) publishing all along: garbage, a connection
// that stops half-way through its handshake, and a flood of connections are each dropped on their
// own while the encoder's stream goes on untouched; so are RTMPS connections that never finish their
// TLS handshake (counted against the bounds from their TCP accept, dropped at the publish deadline),
// and one that finishes it and then says nothing; an encoder that stalls is dropped and its stream ends. The ingest runs alone here (its livestream a stand-in, its sink counting bytes), with
// deadlines of a fraction of a second instead of 10 s. A network test: sockets on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Livestream } from '../../../src/domain/models.js';
import { silentLogger } from '../../../src/logger.js';
import { RtmpIngest } from '../../../src/realtime/ingest/rtmp-ingest.js';
import { TlsIdentity } from '../../../src/realtime/tls.js';
import { withFfmpeg } from '../../helpers/media-probe.js';
import { readUntil } from '../../helpers/web-sdk.js';

const LIVESTREAM = { id: '00000000-0000-4000-8000-00000000a001', orgId: 'org', state: 'OFFLINE', disabled: false, streamKey: 'good-key' } as Livestream;

let ingest: RtmpIngest;
let port: number;
let securePort: number;
// One certificate for the file: made once, before the deadlines of a fraction of a second run.
const identity = new TlsIdentity(undefined);
const received = { bytes: 0, closed: 0 };
const sockets: Socket[] = [];
let encoder: ChildProcess | undefined;

const LIMITS = { publishDeadlineMs: 400, stallMs: 600, maxConnections: 8, maxWaiting: 4 };

async function start(limits = LIMITS): Promise<void> {
  ingest = new RtmpIngest(
    {
      logger: silentLogger(),
      byStreamKey: (key) => (key === LIVESTREAM.streamKey ? LIVESTREAM : undefined),
      refusal: () => undefined,
      ingest: () =>
        Promise.resolve({
          write: (bytes) => void (received.bytes += bytes.length),
          close: () => void received.closed++,
        }),
      tls: identity,
    },
    limits,
  );
  await identity.credentials();
  const ports = await ingest.listen('127.0.0.1', 0, 0);
  port = ports.rtmp!;
  securePort = ports.rtmps!;
}

beforeEach(async () => {
  received.bytes = 0;
  received.closed = 0;
  await start();
});

afterEach(async () => {
  encoder?.kill('SIGKILL');
  encoder = undefined;
  for (const s of sockets.splice(0)) s.destroy();
  await ingest.close();
});

function publish(): ChildProcess {
  return spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=s=320x240:r=25'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-f', 'flv', `rtmp://127.0.0.1:${port}/app/good-key`],
    ],
    { stdio: 'ignore' },
  );
}

/** A raw connection (to the RTMPS port when asked); resolves with it once open, and tells when the ingest closed it. */
async function raw(to = port): Promise<{ socket: Socket; closed: Promise<void>; isClosed: () => boolean }> {
  const socket = connect(to, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  let done = false;
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      done = true;
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed, isClosed: () => done };
}

/** Whether `closed` comes within `ms` (real time: Node's own TLS handshake bound is 120 s, the ingest's far less). */
function within(closed: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    closed.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function encoderGoesOn(): Promise<void> {
  const before = received.bytes;
  await readUntil(
    () => Promise.resolve(received.bytes),
    (b) => b > before + 5_000,
    20_000,
    50,
  );
  expect(received.bytes).toBeGreaterThan(before + 5_000);
  expect(received.closed).toBe(0);
}

describe.runIf(withFfmpeg)('the RTMP ingest drops bad connections alone', () => {
  it('garbage, a half handshake and a flood are dropped while a publishing encoder goes on', async () => {
    encoder = publish();
    await readUntil(
      () => Promise.resolve(received.bytes),
      (b) => b > 10_000,
      20_000,
      50,
    );
    expect(ingest.counts()).toEqual({ connections: 1, publishing: 1 });

    // Garbage after the version byte: chunks the protocol cannot read (a chunk size of 0, an absurd message).
    const garbage = await raw();
    garbage.socket.write(
      Buffer.concat([Buffer.from([3]), Buffer.alloc(1536, 7), Buffer.alloc(1536, 9), Buffer.from('02000000000004010000000000000000', 'hex')]),
    );
    await garbage.closed;

    // A handshake that stops half-way: dropped at the deadline.
    const half = await raw();
    half.socket.write(Buffer.concat([Buffer.from([3]), Buffer.alloc(700, 1)]));
    await half.closed;

    // A flood: past the waiting bound, connections are closed at once; the waiting ones at the deadline.
    const flood = await Promise.all(Array.from({ length: 10 }, () => raw()));
    await Promise.all(flood.map((f) => f.closed));

    // Through all of it the encoder's stream went on, and nothing closed it.
    await encoderGoesOn();
    expect(ingest.counts()).toEqual({ connections: 1, publishing: 1 });
  }, 60_000);

  it('RTMPS connections that never finish TLS count against the bounds from their accept and are dropped at the deadline; a flood of them is bounded; the encoder goes on', async () => {
    // A deadline of 3 s here: what is closed at once and what at the deadline stay apart on a busy machine.
    await ingest.close();
    await start({ ...LIMITS, publishDeadlineMs: 3_000 });
    encoder = publish();
    await readUntil(
      () => Promise.resolve(received.bytes),
      (b) => b > 10_000,
      20_000,
      50,
    );
    expect(ingest.counts()).toEqual({ connections: 1, publishing: 1 });

    // A TCP connection that sends nothing, and one that stops half-way through its ClientHello (a
    // handshake record announcing 512 bytes, one sent): both held to the publish deadline.
    const silent = await raw(securePort);
    const half = await raw(securePort);
    half.socket.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]));
    expect(
      await within(
        Promise.all([silent.closed, half.closed]).then(() => undefined),
        10_000,
      ),
    ).toBe(true);

    // A flood of ten: the four the waiting bound leaves room for are taken (and dropped at the
    // deadline), the other six are closed at once, while the four are still open.
    const flood = await Promise.all(Array.from({ length: 10 }, () => raw(securePort)));
    const early = await readUntil(
      () => Promise.resolve({ closed: flood.filter((f) => f.isClosed()).length, counts: ingest.counts() }),
      (x) => x.closed >= 6,
      2_000,
      20,
    );
    expect(early).toEqual({ closed: 6, counts: { connections: 5, publishing: 1 } });
    expect(
      await within(
        Promise.all(flood.map((f) => f.closed)).then(() => undefined),
        10_000,
      ),
    ).toBe(true);

    // A connection that finishes its TLS handshake and then says nothing: dropped at the same deadline.
    const quiet = connectTls({ port: securePort, host: '127.0.0.1', rejectUnauthorized: false });
    quiet.on('error', () => undefined);
    sockets.push(quiet);
    const quietClosed = new Promise<void>((resolve) => quiet.on('close', () => resolve()));
    await new Promise<void>((resolve) => quiet.once('secureConnect', () => resolve()));
    expect(await within(quietClosed, 10_000)).toBe(true);

    // Through all of it the encoder's stream went on.
    await encoderGoesOn();
    expect(ingest.counts()).toEqual({ connections: 1, publishing: 1 });
  }, 60_000);

  it('an encoder that stalls is dropped and its stream ends; its key is free again', async () => {
    encoder = publish();
    await readUntil(
      () => Promise.resolve(received.bytes),
      (b) => b > 10_000,
      20_000,
      50,
    );
    encoder.kill('SIGSTOP');
    await readUntil(
      () => Promise.resolve(received.closed),
      (c) => c === 1,
      20_000,
      50,
    );
    expect(ingest.counts()).toEqual({ connections: 0, publishing: 0 });
    encoder.kill('SIGKILL');
    encoder = publish();
    await readUntil(
      () => Promise.resolve(ingest.counts().publishing),
      (p) => p === 1,
      20_000,
      50,
    );
  }, 60_000);
});
