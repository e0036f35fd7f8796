// A meeting's livestream carries the meeting: the room's composite, packaged as HLS by the media
// plane, served at its playback_url (a multivariant playlist naming the live playlist with a viewer
// token), LIVE once its first segment is out (REST and webhook), a bot's clip and voice in its
// segments as ffprobe and a picture of them show; viewers are the HLS clients that fetch it; a stop
// ends the packager and its files. A media test: real ffmpeg, real time.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { loudness, probe, withFfmpeg } from '../../helpers/media-probe.js';
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

async function text(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

describe.runIf(withFfmpeg)("a meeting's livestream shows the meeting", () => {
  it('goes LIVE when its first segment is out; its HLS holds the bot on camera with its voice; a stop ends it and its files', async () => {
    const meetingId = await w.meeting('Live show');
    await w.bot(meetingId, 'Ada', { audio: true, video: true });
    const created = await w.rest<LivestreamDto>('POST', `/v2/meetings/${meetingId}/livestreams`, {});
    expect(created.status).toBe('OFFLINE');

    const active = () => w.rest<LivestreamDto>('GET', `/v2/meetings/${meetingId}/active-livestream`);
    const live = await readUntil(active, (l) => l.status === 'LIVE', 30_000, 100);
    expect(live.status).toBe('LIVE');
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

    // The client that fetched the live playlist is the audience.
    const now = await active();
    expect(now.ingest_seconds).toBeGreaterThanOrEqual(1);

    // A stop: OFFLINE, the playlist gone, no packager, no file left.
    await w.rest('POST', `/v2/meetings/${meetingId}/active-livestream/stop`);
    expect((await text(created.playback_url)).status).toBe(404);
    expect(emu.deps.signalling.livestreamCounts()).toEqual({ packaging: 0, files: 0, bytes: 0 });
    const roots = readdirSync(tmpdir()).filter((d) => d.startsWith('meetings-emulator-livestreams-'));
    expect(roots.flatMap((d) => readdirSync(path.join(tmpdir(), d)))).not.toContain(created.id);
  }, 90_000);
});
