// An encoder pushing to the emulator's RTMP ingest, as the guide's ffmpeg command does (RTMPS on the
// emulator's own certificate, or plain RTMP): a livestream made by POST /v2/livestreams goes LIVE when
// the push's first segment is out (REST and webhook), its viewers see what the encoder sends, a drop
// or a disable (the encoder let go) makes it IDLE and a new push LIVE again; a meeting's livestream
// takes an encoder in place of the room, and shows the room again when the encoder drops (LIVE all
// along) and when it is enabled again after a disable; viewer_seconds count the HLS clients that fetch
// the live playlist (the simulator's audience where none did); a wrong, disabled or stopped key, a
// second encoder on a key, and any push while the simulator carries the livestreams are refused at the
// publish and nothing starts; a key reaches its own livestream alone. A media and network test: real
// ffmpeg pushing to real ports on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { frameAt, probe, withFfmpeg } from '../../helpers/media-probe.js';
import { readUntil, restOf } from '../../helpers/web-sdk.js';

let emu: RunningEmulator;
let rest: ReturnType<typeof restOf>;
const dir = mkdtempSync(path.join(tmpdir(), 'ingest-test-'));
const encoders = new Set<ChildProcess>();

beforeAll(async () => {
  emu = await startEmulator({ seed: 'rtmp ingest', clock: 'manual', rtmpPort: 0, rtmpsPort: 0 });
  rest = restOf(emu);
  await rest('POST', '/v2/webhooks', { name: 'live', url: 'http://127.0.0.1:9/hook', events: ['livestreaming.statusUpdate'] });
});
afterEach(() => {
  for (const e of encoders) e.kill('SIGKILL');
  encoders.clear();
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface LivestreamDto {
  id: string;
  status: string;
  ingest_server: string;
  stream_key: string;
  playback_url: string;
}

interface SessionDto {
  ingest_seconds: number;
  viewer_seconds: number;
}

/** ffmpeg pushing a plain colour and a tone, as the guide's command does; its exit and what it printed. */
function push(url: string, colour = '0x3366CC'): { process: ChildProcess; exited: Promise<{ code: number | null; stderr: string }> } {
  const p = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', `color=c=${colour}:s=640x360:r=25`, '-f', 'lavfi', '-i', 'sine=frequency=500:sample_rate=48000'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'flv', url],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  encoders.add(p);
  let stderr = '';
  p.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => p.on('close', (code) => resolve({ code, stderr })));
  return { process: p, exited };
}

/** A push expected to be refused: its exit and what it printed (one still pushing after 20 s is stopped, and printed no refusal). */
async function refusal(url: string): Promise<{ code: number | null; stderr: string }> {
  const p = push(url);
  const timer = setTimeout(() => p.process.kill('SIGKILL'), 20_000);
  try {
    return await p.exited;
  } finally {
    clearTimeout(timer);
  }
}

const status = async (id: string) => (await rest<{ livestream: LivestreamDto }>('GET', `/v2/livestreams/${id}`)).livestream.status;
const untilStatus = (id: string, want: string) =>
  readUntil(
    () => status(id),
    (s) => s === want,
    30_000,
    100,
  );
async function hooks(id: string): Promise<string[]> {
  return (await emu.deliveries())
    .filter((d) => JSON.stringify(d.payload).includes(id))
    .reverse()
    .map((d) => (d.payload as { status: string }).status);
}

/** The live playlist the playback URL names, with a viewer token of its own. */
async function liveUrlOf(playbackUrl: string): Promise<URL> {
  const master = await (await fetch(playbackUrl)).text();
  return new URL(
    master.split('\n').find((l) => l.startsWith('live.m3u8?viewer='))!,
    playbackUrl,
  );
}

/** The live playlist once it shows the `run`th picture (counted from 0: its discontinuity sequence). */
async function untilRun(playbackUrl: string, run: number): Promise<string> {
  const live = await liveUrlOf(playbackUrl);
  const text = await readUntil(
    async () => (await fetch(live)).text(),
    (t) => t.includes(`#EXT-X-DISCONTINUITY-SEQUENCE:${run}`),
    30_000,
    200,
  );
  expect(text).toContain(`#EXT-X-DISCONTINUITY-SEQUENCE:${run}`);
  return text;
}

/** The newest segments a viewer gets, saved as one file. */
async function watch(playbackUrl: string, segments = 2): Promise<string> {
  const live = await liveUrlOf(playbackUrl);
  const playlist = await readUntil(
    async () => {
      const res = await fetch(live);
      return res.status === 200 ? await res.text() : '';
    },
    (t) => (t.match(/^segments\/\d+\.ts$/gm) ?? []).length >= segments,
    30_000,
    200,
  );
  const uris = playlist.match(/^segments\/\d+\.ts$/gm)!.slice(-segments);
  const parts = await Promise.all(uris.map(async (u) => Buffer.from(await (await fetch(new URL(u, live))).arrayBuffer())));
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

function meanColour(file: string): [number, number, number] {
  const { rgb } = frameAt(file, 0);
  const sum = [0, 0, 0];
  for (let i = 0; i < rgb.length; i += 3) for (let c = 0; c < 3; c++) sum[c]! += rgb[i + c]!;
  const n = rgb.length / 3;
  return sum.map((s) => Math.round(s / n)) as [number, number, number];
}

describe.runIf(withFfmpeg)('the RTMP ingest', () => {
  it('a livestream of its own: RTMPS push → LIVE (REST, webhook), viewers see the encoder, drop → IDLE, push again → LIVE', async () => {
    const l = await rest<LivestreamDto>('POST', '/v2/livestreams', { name: 'OBS' });
    expect(l.ingest_server).toBe(`rtmps://127.0.0.1:${emu.deps.config.rtmpsPort}/app/`);
    expect(l.status).toBe('OFFLINE');

    const first = push(`${l.ingest_server}${l.stream_key}`);
    await untilStatus(l.id, 'LIVE');
    // The newest segment holds what is checked (both streams, the size, the colour): the first will do.
    const seen = await watch(l.playback_url, 1);
    const p = probe(seen);
    expect(p.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(p.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 640, height: 360 });
    const [r, g, b] = meanColour(seen);
    expect(Math.abs(r - 0x33)).toBeLessThan(12);
    expect(Math.abs(g - 0x66)).toBeLessThan(12);
    expect(Math.abs(b - 0xcc)).toBeLessThan(12);

    first.process.kill('SIGKILL');
    await untilStatus(l.id, 'IDLE');
    expect(emu.deps.signalling.livestreamCounts().packaging).toBe(0);

    const second = push(`${l.ingest_server}${l.stream_key}`, '0xCC3333');
    await untilStatus(l.id, 'LIVE');
    // The playlist goes on from the first push's segments, a discontinuity between them.
    await untilRun(l.playback_url, 1);
    const [r2, , b2] = meanColour(await watch(l.playback_url, 1));
    expect(r2).toBeGreaterThan(150);
    expect(b2).toBeLessThan(100);
    second.process.kill('SIGKILL');
    await untilStatus(l.id, 'IDLE');
    expect(await hooks(l.id)).toEqual(['OFFLINE', 'LIVE', 'IDLE', 'LIVE', 'IDLE']);
  }, 120_000);

  it('a livestream of its own disabled while an encoder pushes: IDLE, the encoder let go, nothing packaged; enabled, a new push makes it LIVE', async () => {
    const l = await rest<LivestreamDto>('POST', '/v2/livestreams', { name: 'Disabled' });
    const url = `rtmp://127.0.0.1:${emu.deps.config.rtmpPort}/app/${l.stream_key}`;
    const first = push(url);
    await untilStatus(l.id, 'LIVE');
    await rest('PUT', `/v2/livestreams/${l.id}/disable`);
    expect(await status(l.id)).toBe('IDLE');
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      first.exited.then((x) => x.code),
      new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still pushing after 20 s'), 20_000))),
    ]).finally(() => clearTimeout(timer));
    expect(typeof ended, String(ended)).toBe('number');
    expect(ended).not.toBe(0);
    expect(emu.ingest.counts()).toEqual({ connections: 0, publishing: 0 });
    expect(emu.deps.signalling.livestreamCounts().packaging).toBe(0);
    await rest('PUT', `/v2/livestreams/${l.id}/enable`);
    push(url);
    await untilStatus(l.id, 'LIVE');
    expect(await hooks(l.id)).toEqual(['OFFLINE', 'LIVE', 'IDLE', 'LIVE']);
  }, 120_000);

  it("a meeting's livestream takes an encoder (plain RTMP) in place of the room; its stop ends the encoder's connection", async () => {
    const m = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Show' });
    const l = await rest<LivestreamDto>('POST', `/v2/meetings/${m.id}/livestreams`, {});
    await untilStatus(l.id, 'LIVE'); // the room's picture
    const encoder = push(`rtmp://127.0.0.1:${emu.deps.config.rtmpPort}/app/${l.stream_key}`, '0x33CC33');
    const [, g] = await readUntil(
      async () => meanColour(await watch(l.playback_url, 1)),
      ([, green]) => green > 150,
      30_000,
      200,
    );
    expect(g).toBeGreaterThan(150);
    expect(await status(l.id)).toBe('LIVE');
    await rest('POST', `/v2/meetings/${m.id}/active-livestream/stop`);
    const ended = await encoder.exited;
    expect(ended.code).not.toBe(0);
    expect(emu.ingest.counts()).toEqual({ connections: 0, publishing: 0 });
    // Its packagers and its files are gone (the first test's livestream, IDLE, keeps its last segments for its next push).
    expect(emu.deps.signalling.livestreamCounts().packaging).toBe(0);
    expect(emu.deps.signalling.livestreamPlayback(l.id)).toBeUndefined();
  }, 120_000);

  it("a meeting's livestream whose encoder drops shows the meeting again and stays LIVE; disabled and enabled again, it shows the meeting again", async () => {
    const m = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Show again' });
    const l = await rest<LivestreamDto>('POST', `/v2/meetings/${m.id}/livestreams`, {});
    await untilStatus(l.id, 'LIVE'); // the room's picture
    const encoder = push(`rtmp://127.0.0.1:${emu.deps.config.rtmpPort}/app/${l.stream_key}`, '0x33CC33');
    await readUntil(
      async () => meanColour(await watch(l.playback_url, 1)),
      ([, green]) => green > 150,
      30_000,
      200,
    );
    encoder.process.kill('SIGKILL');
    await encoder.exited;

    // The room's picture is back: a third run of the playlist (room, encoder, room), not green.
    await untilRun(l.playback_url, 2);
    const [, g] = await readUntil(
      async () => meanColour(await watch(l.playback_url, 1)),
      ([, green]) => green < 100,
      30_000,
      200,
    );
    expect(g).toBeLessThan(100);
    // It never left LIVE: one session, no IDLE.
    expect(await status(l.id)).toBe('LIVE');
    expect(await hooks(l.id)).toEqual(['OFFLINE', 'LIVE']);
    expect((await rest<{ sessions: unknown[] }>('GET', `/v2/livestreams/${l.id}`)).sessions).toHaveLength(1);
    expect(emu.ingest.counts()).toEqual({ connections: 0, publishing: 0 });
    expect(emu.deps.signalling.livestreamCounts().packaging).toBe(1);

    // Disabled, it goes IDLE without a picture; enabled again, the meeting's picture makes it LIVE again.
    await rest('PUT', `/v2/livestreams/${l.id}/disable`);
    expect(await status(l.id)).toBe('IDLE');
    expect(emu.deps.signalling.livestreamCounts().packaging).toBe(0);
    await rest('PUT', `/v2/livestreams/${l.id}/enable`);
    await untilStatus(l.id, 'LIVE');
    expect(await hooks(l.id)).toEqual(['OFFLINE', 'LIVE', 'IDLE', 'LIVE']);
    expect(emu.deps.signalling.livestreamCounts().packaging).toBe(1);
    await rest('POST', `/v2/meetings/${m.id}/active-livestream/stop`);
    expect(emu.deps.signalling.livestreamCounts().packaging).toBe(0);
  }, 120_000);

  it("viewer_seconds: the HLS clients that fetched the live playlist with their viewer token, on the emulator's clock; a session nobody fetched has the simulator's audience", async () => {
    const l = await rest<LivestreamDto>('POST', '/v2/livestreams', { name: 'Watched' });
    const first = push(`rtmp://127.0.0.1:${emu.deps.config.rtmpPort}/app/${l.stream_key}`);
    await untilStatus(l.id, 'LIVE');
    // Two players: each gets its own viewer token from the playback URL.
    const player = async () => {
      const live = await liveUrlOf(l.playback_url);
      return async () => {
        const res = await fetch(live);
        expect(res.status).toBe(200);
        await res.text();
      };
    };
    const [a, b] = [await player(), await player()];
    const detail = async () =>
      (await rest<{ session: SessionDto; sessions: SessionDto[] }>('GET', `/v2/livestreams/${l.id}`)).sessions.map((x) => ({
        ingest: x.ingest_seconds,
        viewers: x.viewer_seconds,
      }));

    // The emulator's clock is manual: the session started at 0 s. A watches from 0 s (fetching at 0,
    // 4 and 8 s: counted until 10 s after its last fetch, 18 s); B fetches once at 4 s (10 s).
    await a();
    await emu.advance(4_000);
    await a();
    await b();
    await emu.advance(4_000);
    await a();
    expect(await detail()).toEqual([{ ingest: 8, viewers: 4 + 8 }]);
    await emu.advance(30_000);
    expect(await detail()).toEqual([{ ingest: 38, viewers: 18 + 10 }]);
    // A comes back at 38 s, after its window: a new span, 2 s of it by 40 s.
    await a();
    await emu.advance(2_000);
    expect(await detail()).toEqual([{ ingest: 40, viewers: 30 }]);
    const active = await rest<{ session: SessionDto }>('GET', `/v2/livestreams/${l.id}/active-livestream-session`);
    expect([active.session.ingest_seconds, active.session.viewer_seconds]).toEqual([40, 30]);

    // The encoder drops: the session ends at 40 s and its figures stay.
    first.process.kill('SIGKILL');
    await untilStatus(l.id, 'IDLE');
    await emu.advance(10_000);
    expect(await detail()).toEqual([{ ingest: 40, viewers: 30 }]);

    // A new push, a new session that no client fetches: the simulator's audience, ingest seconds × livestream.viewers.
    expect(
      (
        await fetch(`${emu.url}/_emulator/simulator`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ livestream: { viewers: 3 } }),
        })
      ).status,
    ).toBe(200);
    try {
      push(`rtmp://127.0.0.1:${emu.deps.config.rtmpPort}/app/${l.stream_key}`);
      await untilStatus(l.id, 'LIVE');
      await emu.advance(5_000);
      expect(await detail()).toEqual([
        { ingest: 5, viewers: 15 },
        { ingest: 40, viewers: 30 },
      ]);
    } finally {
      await fetch(`${emu.url}/_emulator/simulator`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ livestream: { viewers: 1 } }),
      });
    }
  }, 120_000);

  it("a stream key reaches its own livestream alone: another organization's push, ids and links reach nothing of the first's", async () => {
    const a = await rest<LivestreamDto>('POST', '/v2/livestreams', { name: 'A' });
    const created = await fetch(`${emu.url}/_emulator/orgs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Organization B' }),
    });
    const org = (await created.json()) as { id: string; api_key: string };
    const authB = `Basic ${Buffer.from(`${org.id}:${org.api_key}`).toString('base64')}`;
    const restB = restOf({ url: emu.url, authHeader: authB });
    const b = await restB<LivestreamDto>('POST', '/v2/livestreams', { name: 'B' });
    expect(b.stream_key).not.toBe(a.stream_key);

    // B's encoder pushes with B's key: B's livestream goes LIVE; A's stays OFFLINE, without a picture.
    const base = `rtmp://127.0.0.1:${emu.deps.config.rtmpPort}/app`;
    push(`${base}/${b.stream_key}`);
    await readUntil(
      async () => (await restB<{ livestream: LivestreamDto }>('GET', `/v2/livestreams/${b.id}`)).livestream.status,
      (x) => x === 'LIVE',
      30_000,
      100,
    );
    expect(await status(a.id)).toBe('OFFLINE');
    expect(emu.deps.signalling.livestreamPlayback(a.id)).toBeUndefined();
    expect((await fetch(a.playback_url)).status).toBe(404);
    expect((await fetch(b.playback_url)).status).toBe(200);
    expect(await hooks(a.id)).toEqual(['OFFLINE']);
    expect(emu.ingest.counts()).toEqual({ connections: 1, publishing: 1 });

    // A livestream's id is no key: a push naming A's id reaches nothing.
    const byId = await refusal(`${base}/${a.id}`);
    expect(byId.stderr).toContain('Server error: No livestream has this stream key');
    expect(await status(a.id)).toBe('OFFLINE');

    // B's credentials reach none of A's livestream by its id; B's list holds B's alone.
    for (const [method, route] of [
      ['GET', `/v2/livestreams/${a.id}`],
      ['GET', `/v2/livestreams/${a.id}/active-livestream-session`],
      ['POST', `/v2/livestreams/${a.id}/reset-stream-key`],
      ['PUT', `/v2/livestreams/${a.id}/disable`],
    ] as const) {
      const res = await fetch(`${emu.url}${route}`, { method, headers: { authorization: authB } });
      expect(res.status, `${method} ${route}`).toBe(404);
      expect(JSON.stringify(await res.json())).not.toContain(a.stream_key);
    }
    expect((await restB<{ livestreams: LivestreamDto[] }>('GET', '/v2/livestreams')).livestreams.map((l) => l.id)).toEqual([b.id]);
    expect((await rest<{ livestream: LivestreamDto }>('GET', `/v2/livestreams/${a.id}`)).livestream).toMatchObject({
      status: 'OFFLINE',
      stream_key: a.stream_key,
      disabled: false,
    });
  }, 60_000);

  it('a wrong key, another app, a disabled livestream, a stopped one, a second encoder: refused at the publish, nothing starts', async () => {
    const l = await rest<LivestreamDto>('POST', '/v2/livestreams', { name: 'Refused' });
    const base = `rtmp://127.0.0.1:${emu.deps.config.rtmpPort}`;
    const refused = async (url: string) => {
      const out = await refusal(url);
      expect(out.code).not.toBe(0);
      return out.stderr;
    };
    // The encoder prints the reason the ingest gives (its onStatus error's description).
    expect(await refused(`${base}/app/not-a-key`)).toContain('Server error: No livestream has this stream key');
    expect(await refused(`${base}/live/${l.stream_key}`)).toContain('Server error: The application is "app"');
    await rest('PUT', `/v2/livestreams/${l.id}/disable`);
    expect(await refused(`${base}/app/${l.stream_key}`)).toContain(`Server error: Livestream ${l.id} is disabled`);
    expect(await status(l.id)).toBe('OFFLINE');
    await rest('PUT', `/v2/livestreams/${l.id}/enable`);

    // A stopped livestream (a meeting's: a stop ends one of those) takes no encoder.
    const m = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Stopped' });
    const stopped = await rest<LivestreamDto>('POST', `/v2/meetings/${m.id}/livestreams`, {});
    await rest('POST', `/v2/meetings/${m.id}/active-livestream/stop`);
    const stoppedHooks = await hooks(stopped.id);
    expect(await refused(`${base}/app/${stopped.stream_key}`)).toContain(`Server error: Livestream ${stopped.id} is stopped`);
    expect(await status(stopped.id)).toBe('OFFLINE');
    expect(emu.deps.signalling.livestreamPlayback(stopped.id)).toBeUndefined();
    expect(await hooks(stopped.id)).toEqual(stoppedHooks);

    // A second encoder on a key another one pushes to is refused; the first goes on.
    const first = push(`${base}/app/${l.stream_key}`);
    await untilStatus(l.id, 'LIVE');
    const liveHooks = await hooks(l.id);
    expect(await refused(`${base}/app/${l.stream_key}`)).toContain(`Server error: Livestream ${l.id} already has an encoder`);
    expect(emu.ingest.counts()).toEqual({ connections: 1, publishing: 1 });
    expect(await status(l.id)).toBe('LIVE');
    expect(first.process.exitCode).toBeNull();
    expect(await hooks(l.id)).toEqual(liveHooks);
    first.process.kill('SIGKILL');
    await untilStatus(l.id, 'IDLE');

    // An organization's reset takes its livestreams' keys with it: such a key reaches nothing.
    const other = await rest<LivestreamDto>('POST', '/v2/livestreams', { name: 'Reset' });
    await fetch(`${emu.url}/_emulator/orgs/${emu.orgId}/reset`, { method: 'POST' });
    expect(await refused(`${base}/app/${other.stream_key}`)).toContain('Server error: No livestream has this stream key');
    expect(emu.deps.signalling.livestreamCounts().packaging).toBe(0);
    expect(emu.ingest.counts()).toEqual({ connections: 0, publishing: 0 });
  }, 60_000);

  it('while the simulator carries the livestreams, a push is refused with the reason, and nothing starts', async () => {
    const sim = await startEmulator({ seed: 'rtmp simulated', clock: 'manual', livestreams: 'sample', rtmpPort: 0, rtmpsPort: 0 });
    try {
      const l = await restOf(sim)<LivestreamDto>('POST', '/v2/livestreams', { name: 'Simulated' });
      const out = await refusal(`rtmp://127.0.0.1:${sim.deps.config.rtmpPort}/app/${l.stream_key}`);
      expect(out.code).not.toBe(0);
      expect(out.stderr).toContain(
        'Server error: This emulator takes no encoder: every livestream is simulated: LIVE on a timer, the sample segments (--livestreams sample)',
      );
      expect((await restOf(sim)<{ livestream: LivestreamDto }>('GET', `/v2/livestreams/${l.id}`)).livestream.status).toBe('OFFLINE');
      expect(sim.ingest.counts()).toEqual({ connections: 0, publishing: 0 });
      expect(sim.deps.signalling.livestreamCounts()).toEqual({ packaging: 0, files: 0, bytes: 0 });
    } finally {
      await sim.close();
    }
  }, 60_000);
});
