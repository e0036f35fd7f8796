// A meeting's livestream carries the meeting: the room's composite, packaged as HLS by the media
// plane, served at its playback_url (a multivariant playlist naming the live playlist with a viewer
// token), LIVE once its first segment is out (REST and webhook), a bot's clip and voice in its
// segments as ffprobe and a picture of them show; its ingest_seconds are the time it was LIVE; a stop
// ends the packager and its files, as the system shows them. A media test: real ffmpeg, real time.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { loudness, probe, withFfmpeg } from '../../helpers/media-probe.js';
import { ffmpegsWritingTo } from '../../helpers/proc-sockets.js';
import { RecorderWorld, showsClip } from '../../helpers/recorder.js';
import { readUntil } from '../../helpers/web-sdk.js';

let emu: RunningEmulator;
let w: RecorderWorld;
const dir = mkdtempSync(path.join(tmpdir(), 'livestream-test-'));

beforeAll(async () => {
  emu = await startEmulator({ seed: 'room livestream', clock: 'real' });
  w = new RecorderWorld(emu);
  await w.rest('POST', '/v2/webhooks', { name: 'live', url: 'http://127.0.0.1:9/hook', events: ['livestreaming.statusUpdate'] });
});
afterAll(async () => {
  await emu?.close();
  w?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The one tile of a meeting with one participant, in the 1280 × 720 picture. */
const ONE = { x: 14, y: 8, w: 1250, h: 704 };

interface LivestreamDto {
  id: string;
  status: string;
  playback_url: string;
  ingest_seconds?: number;
  viewer_seconds?: number;
}

interface SessionDto {
  started_time: string;
  stopped_time?: string;
  ingest_seconds: number;
}

/** The folders of a livestream in every emulator's livestream folder on the machine (each named `<id>-XXXXXX`). */
function foldersOf(id: string): string[] {
  const roots = readdirSync(tmpdir())
    .filter((d) => d.startsWith('meetings-emulator-livestreams-'))
    .map((d) => path.join(tmpdir(), d));
  const out: string[] = [];
  for (const root of roots) {
    let names: string[] = [];
    try {
      names = readdirSync(root);
    } catch {
      // Another emulator's folder, removed meanwhile.
    }
    for (const name of names) if (name.startsWith(`${id}-`)) out.push(path.join(root, name));
  }
  return out;
}

async function text(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

describe.runIf(withFfmpeg)("a meeting's livestream shows the meeting", () => {
  it('goes LIVE when its first segment is out; its HLS holds the bot on camera with its voice; a stop ends it and its files', async () => {
    const meetingId = await w.meeting('Live show');
    await w.bot(meetingId, 'Ada', { audio: true, video: true });
    // When it goes LIVE, as the test can tell (the emulator's clock is the real one): after the last
    // answer that was not LIVE was asked for, and before the first LIVE one came.
    let notLiveAsked = Date.now();
    const created = await w.rest<LivestreamDto>('POST', `/v2/meetings/${meetingId}/livestreams`, {});
    expect(created.status).toBe('OFFLINE');

    const active = () => w.rest<LivestreamDto>('GET', `/v2/meetings/${meetingId}/active-livestream`);
    const live = await readUntil(
      async () => {
        const asked = Date.now();
        const l = await active();
        if (l.status !== 'LIVE') notLiveAsked = asked;
        return l;
      },
      (l) => l.status === 'LIVE',
      30_000,
      100,
    );
    const liveSeen = Date.now();
    expect(live.status).toBe('LIVE');
    // Its one folder, and the one packager writing into it.
    const folders = foldersOf(created.id);
    expect(folders).toHaveLength(1);
    expect(ffmpegsWritingTo(folders[0]!)).toHaveLength(1);
    expect((await emu.deliveries()).filter((d) => JSON.stringify(d.payload).includes(created.id)).map((d) => (d.payload as { status: string }).status)).toEqual(
      ['LIVE', 'OFFLINE'],
    );

    // The playback URL: a multivariant playlist naming the live playlist with a viewer token.
    const master = await text(created.playback_url);
    expect(master.status).toBe(200);
    const variant = master.body.split('\n').find((l) => l.startsWith('live.m3u8?viewer='));
    expect(variant).toMatch(/^live\.m3u8\?viewer=[A-Za-z0-9_-]{16}$/);
    const liveUrl = new URL(variant!, created.playback_url).toString();

    // Wait for six segments: the camera's first key frame has come by then (its decoder starts on one).
    const playlist = await readUntil(
      () => text(liveUrl),
      (p) => p.status === 200 && (p.body.match(/^segments\/\d+\.ts$/gm) ?? []).length >= 6,
      30_000,
      200,
    );
    expect(playlist.body).toMatch(/^#EXTM3U/);
    expect(playlist.body).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:0');
    expect(playlist.body).toMatch(/#EXT-X-TARGETDURATION:[12]\n/);
    const uris = playlist.body.match(/^segments\/\d+\.ts$/gm)!;
    const parts: Buffer[] = [];
    for (const uri of uris.slice(-3)) {
      const res = await fetch(new URL(uri, liveUrl));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp2t');
      parts.push(Buffer.from(await res.arrayBuffer()));
    }
    const saved = path.join(process.env.KEEP_SEGMENTS ?? dir, 'segments.ts');
    writeFileSync(saved, Buffer.concat(parts));
    const p = probe(saved);
    expect(p.streams.map((s) => [s.codec_type, s.codec_name])).toEqual([
      ['video', 'h264'],
      ['audio', 'aac'],
    ]);
    expect(p.streams[0]).toMatchObject({ width: 1280, height: 720 });
    expect(showsClip(saved, 1, ONE)).toBe(true);
    expect(loudness(saved).maxDb).toBeGreaterThan(-30);

    // ingest_seconds: the whole seconds it has been LIVE so far.
    const asked = Date.now();
    const now = await active();
    const answered = Date.now();
    expect(now.ingest_seconds).toBeGreaterThanOrEqual(Math.floor((asked - liveSeen) / 1000));
    expect(now.ingest_seconds).toBeLessThanOrEqual(Math.floor((answered - notLiveAsked) / 1000));

    // A stop: OFFLINE, the playlist gone; its session's ingest_seconds are the span it was LIVE.
    const stopAsked = Date.now();
    await w.rest('POST', `/v2/meetings/${meetingId}/active-livestream/stop`);
    const stopAnswered = Date.now();
    expect((await text(created.playback_url)).status).toBe(404);
    const { sessions } = await w.rest<{ sessions: SessionDto[] }>('GET', `/v2/livestreams/${created.id}`);
    expect(sessions).toHaveLength(1);
    const started = Date.parse(sessions[0]!.started_time);
    const stopped = Date.parse(sessions[0]!.stopped_time!);
    expect(started).toBeGreaterThanOrEqual(notLiveAsked);
    expect(started).toBeLessThanOrEqual(liveSeen);
    expect(stopped).toBeGreaterThanOrEqual(stopAsked);
    expect(stopped).toBeLessThanOrEqual(stopAnswered);
    expect(sessions[0]!.ingest_seconds).toBe(Math.floor((stopped - started) / 1000));
    expect(sessions[0]!.ingest_seconds).toBeGreaterThanOrEqual(Math.floor((stopAsked - liveSeen) / 1000));

    // No packager and no folder left (the folder goes once its packager has exited).
    const left = await readUntil(
      () => Promise.resolve({ packagers: ffmpegsWritingTo(folders[0]!).length, folder: existsSync(folders[0]!), folders: foldersOf(created.id) }),
      (x) => x.packagers === 0 && !x.folder && x.folders.length === 0,
      20_000,
      100,
    );
    expect(left).toEqual({ packagers: 0, folder: false, folders: [] });
  }, 90_000);
});
