// The RTMP ingest's bounds, with an encoder (ffmpeg) publishing all along: garbage, a connection
// that stops half-way through its handshake, and a flood of connections are each dropped on their
// own while the encoder's stream goes on untouched; an encoder that stalls is dropped and its
// stream ends. The ingest runs alone here (its livestream a stand-in, its sink counting bytes), with
// deadlines of a fraction of a second instead of 10 s. A network test: sockets on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
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
const received = { bytes: 0, closed: 0 };
const sockets: Socket[] = [];
let encoder: ChildProcess | undefined;

beforeEach(async () => {
  received.bytes = 0;
  received.closed = 0;
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
      tls: new TlsIdentity(undefined),
    },
    { publishDeadlineMs: 400, stallMs: 600, maxConnections: 8, maxWaiting: 4 },
  );
  port = (await ingest.listen('127.0.0.1', 0, null)).rtmp!;
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

/** A raw connection; resolves with it once open, and tells when the ingest closed it. */
async function raw(): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed };
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
    const before = received.bytes;
    await readUntil(
      () => Promise.resolve(received.bytes),
      (b) => b > before + 5_000,
      20_000,
      50,
    );
    expect(received.closed).toBe(0);
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
