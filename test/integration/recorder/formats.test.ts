// A recording made as it was asked for, in production's formats, decoded: H.264 with AAC in mono
// at another size, VP8 and Vorbis in WebM at another size, an audio-only MP3 in mono, a watermark
// drawn at its size where it was placed, a track recording's tracks each as a stream of its own
// (the camera's clip, the voices' sound), names and Content-Types true to the files. And what is
// refused before anything starts: a watermark that does not load, VP8 with MP3, a watermark larger
// than the picture. A media test: the emulator in this process, its media plane and encoders in
// theirs, a watermark served from this machine.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { frameAt, loudness, probe, withFfmpeg } from '../../helpers/media-probe.js';
import { RecorderWorld, showsClip } from '../../helpers/recorder.js';

let emu: RunningEmulator;
let w: RecorderWorld;
let images: Server;
let imagesUrl: string;
/** A port of this machine nothing listens on. */
let closedPort: number;

beforeAll(async () => {
  emu = await startEmulator({ seed: 'recorder-formats' });
  w = new RecorderWorld(emu);
  // A 100 × 40 magenta PNG, and a page that is not an image.
  const png = withFfmpeg ? readFileSync(w.pngFile(100, 40, 'magenta')) : Buffer.alloc(0);
  images = createServer((req, res) => {
    if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<p>not an image</p>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  const probeServer = createServer();
  await new Promise<void>((resolve) => probeServer.listen(0, '127.0.0.1', resolve));
  closedPort = (probeServer.address() as AddressInfo).port;
  await new Promise((resolve) => probeServer.close(resolve));
});
afterAll(async () => {
  await emu?.close();
  w?.close();
  await new Promise((resolve) => images?.close(resolve));
});

/**
 * A meeting where Ada publishes the clip's camera and voice and Bob its voice, and a recording of it
 * made as `body` asks, 12 s long; `voices`: the clock jumps once a second of each voice has reached
 * the recorder.
 */
async function recorded(body: Record<string, unknown>, path = '/v2/recordings', options: { voices?: boolean } = {}) {
  const meetingId = await w.meeting();
  await w.bot(meetingId, 'Ada', { audio: true, video: true });
  await w.bot(meetingId, 'Bob', { audio: true });
  const r = await w.record({ meeting_id: meetingId, ...body }, path);
  await w.recorderUntil(r.id, (tiles) => (tiles.find((t) => t.name === 'Ada')?.camera?.decoded ?? 0) > 0);
  // A second of each voice reaches the recorder before the clock jumps: what it hears in real time
  // is what a jumped span holds of the sound.
  if (options.voices) await w.recorderUntil(r.id, (tiles) => tiles.every((t) => !t.microphone || t.microphone.decoded >= 48_000));
  await emu.advance(12_000);
  const done = await w.stopAndUpload(r.id);
  expect(done.status).toBe('UPLOADED');
  expect(done.recording_duration).toBe(12);
  return { meetingId, done };
}

describe.runIf(withFfmpeg)('recordings in the formats asked for', () => {
  it('VP8 at 640 × 360: VP8 and Vorbis in WebM, and the audio file in Ogg Vorbis', async () => {
    const { done } = await recorded({ video_config: { codec: 'VP8', width: 640, height: 360 } });
    expect(done.output_file_name).toMatch(/\.webm$/);
    const video = await w.download(done.download_url!);
    expect(video).toMatchObject({ status: 200, contentType: 'video/webm', bytes: done.file_size });
    const p = probe(video.file);
    expect(p.format.format_name).toContain('webm');
    expect(p.streams.map((s) => [s.codec_name, s.width ?? s.channels, s.height ?? null])).toEqual([
      ['vp8', 640, 360],
      ['vorbis', 2, null],
    ]);
    expect(Math.abs(Number(p.format.duration) - 12)).toBeLessThanOrEqual(1);
    expect(new URL(done.audio_download_url!).pathname).toMatch(/\.ogg$/);
    const audio = await w.download(done.audio_download_url!);
    expect(audio.contentType).toBe('audio/ogg');
    expect(probe(audio.file).streams.map((s) => s.codec_name)).toEqual(['vorbis']);
  });

  it('audio only, MP3 in mono: no video file, the MP3 behind audio_download_url', async () => {
    const { done } = await recorded({ video_config: { export_file: false }, audio_config: { codec: 'MP3', channel: 'mono' } });
    expect(done.output_file_name).toMatch(/\.mp3$/);
    expect(done.download_url).toBeNull();
    const audio = await w.download(done.audio_download_url!);
    expect(audio).toMatchObject({ status: 200, contentType: 'audio/mpeg', bytes: done.file_size });
    const p = probe(audio.file);
    expect(p.streams.map((s) => [s.codec_type, s.codec_name, s.channels])).toEqual([['audio', 'mp3', 1]]);
    expect(Math.abs(Number(p.format.duration) - 12)).toBeLessThanOrEqual(1);
  });

  it("file_name_prefix names the files; audio_config's AAC in stereo makes the M4A", async () => {
    const { meetingId, done } = await recorded({ file_name_prefix: 'weekly', audio_config: { codec: 'AAC', channel: 'stereo', export_file: true } });
    expect(done.output_file_name).toMatch(new RegExp(`^weekly_${meetingId}_\\d+\\.mp4$`));
    const audio = await w.download(done.audio_download_url!);
    expect(new URL(done.audio_download_url!).pathname.endsWith(done.output_file_name.replace(/\.mp4$/, '.m4a'))).toBe(true);
    expect(audio.contentType).toBe('audio/mp4');
    expect(probe(audio.file).streams.map((s) => [s.codec_name, s.channels])).toEqual([['aac', 2]]);
  });

  it('H.264 at 960 × 540 with AAC in mono: the MP4 at that size with one channel, and the M4A in mono', async () => {
    const { done } = await recorded({ video_config: { width: 960, height: 540 }, audio_config: { codec: 'AAC', channel: 'mono', export_file: true } });
    const video = await w.download(done.download_url!);
    expect(video).toMatchObject({ status: 200, contentType: 'video/mp4', bytes: done.file_size });
    expect(probe(video.file).streams.map((s) => [s.codec_name, s.width ?? s.channels, s.height ?? null])).toEqual([
      ['h264', 960, 540],
      ['aac', 1, null],
    ]);
    const audio = await w.download(done.audio_download_url!);
    expect(audio.contentType).toBe('audio/mp4');
    expect(probe(audio.file).streams.map((s) => [s.codec_name, s.channels])).toEqual([['aac', 1]]);
  });

  it('a watermark is drawn at its size where it was placed', async () => {
    const { done } = await recorded({
      video_config: { watermark: { url: `${imagesUrl}/logo.png`, size: { width: 100, height: 40 }, position: 'right bottom' } },
    });
    const video = await w.download(done.download_url!);
    const { width, rgb } = frameAt(video.file, 6);
    const pixel = (x: number, y: number) => [...rgb.subarray((y * width + x) * 3, (y * width + x) * 3 + 3)];
    // 10 px in from the right and the bottom: the magenta box spans x 1170–1269, y 670–709.
    for (const [x, y] of [
      [1175, 675],
      [1265, 705],
      [1220, 690],
    ] as const) {
      const [r, g, b] = pixel(x, y);
      expect([r! > 200, g! < 60, b! > 200], `pixel ${x},${y} is ${[r, g, b].join(',')}`).toEqual([true, true, true]);
    }
    const [r, g, b] = pixel(1150, 690); // left of it: the tile's backdrop, not magenta
    expect(r! > 200 && g! < 60 && b! > 200).toBe(false);
  });

  it('a watermark is scaled to the size asked, its proportions too, and drawn at the left top', async () => {
    // The image is 100 × 40; asked at 60 × 20, 10 px in from the left and the top: x 10–69, y 10–29.
    const { done } = await recorded({
      video_config: { watermark: { url: `${imagesUrl}/logo.png`, size: { width: 60, height: 20 }, position: 'left top' } },
    });
    const video = await w.download(done.download_url!);
    const { width, rgb } = frameAt(video.file, 6);
    const magenta = (x: number, y: number) => {
      const [r, g, b] = rgb.subarray((y * width + x) * 3, (y * width + x) * 3 + 3);
      return r! > 200 && g! < 60 && b! > 200;
    };
    for (const [x, y] of [
      [14, 14],
      [65, 26],
      [40, 20],
    ] as const)
      expect(magenta(x, y), `pixel ${x},${y} (inside the watermark)`).toBe(true);
    // Where the image would reach at its own size (x to 109, y to 49), and at the other corners.
    for (const [x, y] of [
      [80, 20],
      [40, 40],
      [1220, 690],
      [1220, 20],
      [40, 690],
    ] as const)
      expect(magenta(x, y), `pixel ${x},${y} (outside the watermark)`).toBe(false);
  });

  it("a track recording's file holds each track as a stream of its own, named after its participant", async () => {
    const { done } = await recorded({ layers: { default: { file_name_prefix: 'tracks' } } }, '/v2/recordings/track', { voices: true });
    expect(done.output_file_name).toMatch(/^tracks_.*\.webm$/);
    expect(done.audio_download_url).toBeNull();
    const file = await w.download(done.download_url!);
    expect(file).toMatchObject({ status: 200, contentType: 'video/webm', bytes: done.file_size });
    const p = probe(file.file);
    const streams = p.streams.map((s) => [s.tags?.title, s.codec_name]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(streams).toEqual([
      ['Ada camera', 'vp8'],
      ['Ada microphone', 'opus'],
      ['Bob microphone', 'opus'],
    ]);
    expect(Math.abs(Number(p.format.duration) - 12)).toBeLessThanOrEqual(1);
    // What each track holds: Ada's camera shows the clip; each voice is the clip's tone, not silence.
    const camera = p.streams.find((s) => s.codec_type === 'video')!;
    expect(showsClip(file.file, 6, { x: 0, y: 0, w: camera.width!, h: camera.height! })).toBe(true);
    const voices = p.streams.filter((s) => s.codec_type === 'audio');
    for (const [i, voice] of voices.entries()) expect(loudness(file.file, 0, undefined, i).maxDb, `${voice.tags?.title}'s loudest`).toBeGreaterThan(-30);
  });
});

describe.runIf(withFfmpeg)('refused before anything starts', () => {
  it.each([
    [
      'a watermark that answers 404',
      () => ({ video_config: { watermark: { url: `${imagesUrl}/missing.png` } } }),
      /"video_config.watermark.url" could not be loaded from .*\(HTTP 404\)/,
    ],
    [
      'a watermark that is not an image',
      () => ({ video_config: { watermark: { url: `${imagesUrl}/page.html` } } }),
      /"video_config.watermark.url" at .* is not a PNG, JPEG, GIF or WebP image/,
    ],
    [
      'a watermark no server answers for',
      () => ({ video_config: { watermark: { url: `http://127.0.0.1:${closedPort}/logo.png` } } }),
      /"video_config.watermark.url" could not be loaded from .*ECONNREFUSED/,
    ],
    [
      'VP8 with MP3',
      () => ({ video_config: { codec: 'VP8' }, audio_config: { codec: 'MP3' } }),
      /"audio_config.codec" cannot be MP3 with video_config.codec VP8/,
    ],
    [
      'a watermark wider than the picture',
      () => ({ video_config: { width: 640, height: 360, watermark: { url: `${imagesUrl}/logo.png`, size: { width: 641, height: 40 } } } }),
      /"video_config.watermark.size.width" must be at most the video's width \(640\)/,
    ],
  ])('%s: 400 naming it, and no recording', async (_name, body, message) => {
    const meetingId = await w.meeting();
    const res = await fetch(`${emu.url}/v2/recordings`, {
      method: 'POST',
      headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
      body: JSON.stringify({ meeting_id: meetingId, ...body() }),
    });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { success: boolean; error: { code: number; message: string } };
    expect(answer.success).toBe(false);
    expect(answer.error.message).toMatch(message);
    const list = await w.rest<unknown[]>('GET', `/v2/recordings?meeting_id=${meetingId}`);
    expect(list).toEqual([]);
  });
});
