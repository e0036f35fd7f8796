// What a livestream holds goes back to nothing however it ends: a stop (of that livestream alone, the
// others going on), its organization's reset, a reset, the emulator's stop. Counted as the system shows them, not as the emulator reports them:
// the packagers (ffmpeg processes writing into the livestreams' folders), the encoders' connections
// (TCP sockets on the ingest's port), the HLS files on disk; and the encoders pushing are let go (their
// ffmpeg exits). A media and network test: real ffmpeg, real ports on 127.0.0.1, real time.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { withFfmpeg } from '../../helpers/media-probe.js';
import { ffmpegsWritingTo, socketsOf } from '../../helpers/proc-sockets.js';
import { readUntil, restOf } from '../../helpers/web-sdk.js';

let emu: RunningEmulator | undefined;
const encoders: ChildProcess[] = [];

afterEach(async () => {
  for (const e of encoders.splice(0)) e.kill('SIGKILL');
  await emu?.close();
  emu = undefined;
});

/** The packagers: ffmpeg processes whose output is one of this emulator's livestream folders. */
function packagers(root: string | undefined): number {
  return root ? ffmpegsWritingTo(root).length : 0;
}

/** Entries of a folder (none once it is gone). */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * This emulator's livestream folder (the one holding these livestreams' folders, each named after
 * its livestream: other test files running beside this one make theirs in the same temporary
 * directory), and the files in them.
 */
function roots(ids: string[]): { root: string | undefined; files: number } {
  const ours = (root: string) => entries(root).filter((d) => ids.some((id) => d.startsWith(`${id}-`)));
  const made = entries(tmpdir())
    .filter((d) => d.startsWith('meetings-emulator-livestreams-'))
    .map((d) => path.join(tmpdir(), d))
    .filter((root) => ours(root).length > 0);
  let files = 0;
  for (const root of made) for (const sub of ours(root)) files += entries(path.join(root, sub)).length;
  return { root: made[0], files };
}

function ingestSockets(e: RunningEmulator): number {
  return socketsOf(process.pid).filter((s) => s.protocol === 'tcp' && s.state === 'ESTABLISHED' && s.port === e.deps.config.rtmpPort).length;
}

function push(url: string): { process: ChildProcess; exited: Promise<number | null> } {
  const p = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=320x240:r=25',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '25',
      '-f',
      'flv',
      url,
    ],
    { stdio: 'ignore' },
  );
  encoders.push(p);
  return { process: p, exited: new Promise((resolve) => p.on('close', (code) => resolve(code))) };
}

interface LivestreamDto {
  id: string;
  status: string;
  stream_key: string;
}

/** A meeting's livestream showing the room, and one of its own fed by an encoder: both LIVE, their packagers running. */
async function world(e: RunningEmulator) {
  const rest = restOf(e);
  const m = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Leaks' });
  const room = await rest<LivestreamDto>('POST', `/v2/meetings/${m.id}/livestreams`, {});
  const own = await rest<LivestreamDto>('POST', '/v2/livestreams', { name: 'encoder' });
  const encoder = push(`rtmp://127.0.0.1:${e.deps.config.rtmpPort}/app/${own.stream_key}`);
  const status = async (id: string) => (await rest<{ livestream: LivestreamDto }>('GET', `/v2/livestreams/${id}`)).livestream.status;
  for (const id of [room.id, own.id])
    await readUntil(
      () => status(id),
      (s) => s === 'LIVE',
      30_000,
      100,
    );
  return { rest, meetingId: m.id, room, own, encoder, status };
}

/** The one folder of a livestream (named `<id>-XXXXXX`) in this emulator's livestream folder. */
function folderOf(root: string, id: string): string {
  const names = entries(root).filter((d) => d.startsWith(`${id}-`));
  expect(names).toHaveLength(1);
  return path.join(root, names[0]!);
}

const ENDINGS = [
  ['an organization reset', (e: RunningEmulator) => fetch(`${e.url}/_emulator/orgs/${e.orgId}/reset`, { method: 'POST' })],
  ['a reset', (e: RunningEmulator) => fetch(`${e.url}/_emulator/reset`, { method: 'POST' })],
  ['the emulator stopping', (e: RunningEmulator) => e.close()],
] as const;

describe.runIf(withFfmpeg)('a livestream leaves nothing behind', () => {
  it.each(ENDINGS)(
    'after %s: no packager, no encoder connection, no HLS file; the encoder let go',
    async (_name, end) => {
      emu = await startEmulator({ seed: 'leaks', clock: 'real', rtmpPort: 0, rtmpsPort: 0 });
      const e = emu;
      const w = await world(e);
      const ids = [w.room.id, w.own.id];
      const { root } = roots(ids);
      expect(root).toBeDefined();
      expect(packagers(root)).toBe(2);
      expect(ingestSockets(e)).toBe(1);
      expect(roots(ids).files).toBeGreaterThan(0);

      await end(e);
      expect(await w.encoder.exited).not.toBe(0);
      const after = await readUntil(
        () => Promise.resolve({ packagers: packagers(root), sockets: ingestSockets(e), files: roots(ids).files }),
        (x) => x.packagers === 0 && x.sockets === 0 && x.files === 0,
        20_000,
        100,
      );
      expect(after).toEqual({ packagers: 0, sockets: 0, files: 0 });
    },
    90_000,
  );

  it("after a stop, nothing of the stopped livestream is left (its packager, its encoder's connection, its files), and the other livestream goes on", async () => {
    emu = await startEmulator({ seed: 'leaks', clock: 'real', rtmpPort: 0, rtmpsPort: 0 });
    const e = emu;
    const w = await world(e);
    const { root } = roots([w.room.id, w.own.id]);
    expect(root).toBeDefined();
    // An encoder pushes to the meeting's livestream too, in place of the room's picture.
    const onRoom = push(`rtmp://127.0.0.1:${e.deps.config.rtmpPort}/app/${w.room.stream_key}`);
    const stopped = folderOf(root!, w.room.id);
    const going = folderOf(root!, w.own.id);
    const before = await readUntil(
      () => Promise.resolve({ packagers: ffmpegsWritingTo(stopped).length, sockets: ingestSockets(e), publishing: e.ingest.counts().publishing }),
      (x) => x.packagers === 1 && x.sockets === 2 && x.publishing === 2,
      30_000,
      100,
    );
    expect(before).toEqual({ packagers: 1, sockets: 2, publishing: 2 });
    expect(entries(stopped).length).toBeGreaterThan(0);

    await w.rest('POST', `/v2/meetings/${w.meetingId}/active-livestream/stop`);
    expect(await onRoom.exited).not.toBe(0);
    const after = await readUntil(
      () =>
        Promise.resolve({
          packagers: ffmpegsWritingTo(stopped).length,
          sockets: ingestSockets(e),
          files: entries(stopped).length,
          folder: existsSync(stopped),
        }),
      (x) => x.packagers === 0 && x.sockets === 1 && x.files === 0 && !x.folder,
      20_000,
      100,
    );
    expect(after).toEqual({ packagers: 0, sockets: 1, files: 0, folder: false });
    // The other livestream's encoder, packager and files are untouched.
    expect(await w.status(w.own.id)).toBe('LIVE');
    expect(ffmpegsWritingTo(going)).toHaveLength(1);
    expect(entries(going).length).toBeGreaterThan(0);
    expect(w.encoder.process.exitCode).toBeNull();
  }, 90_000);
});
