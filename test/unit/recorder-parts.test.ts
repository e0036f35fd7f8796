// The recorder's pure parts: where the kits put each tile, the container its encoders read, the
// recording's timeline on the plane's real time, a keyframe's size, names to initials, the files
// each kind of recording makes, and the bookkeeping of recordings' files on disk (the disk limit,
// evictions, what a link serves).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { layoutTiles } from '../../src/realtime/media/plane/recorder/layout.js';
import { MatroskaWriter, opusHead, vintSize } from '../../src/realtime/media/plane/recorder/matroska.js';
import { RecordingTimeline } from '../../src/realtime/media/plane/recorder/recording-timeline.js';
import { keyframeSize } from '../../src/realtime/media/plane/recorder/track-decoders.js';
import { initialsOf, mixed } from '../../src/realtime/media/plane/recorder/room-composite.js';
import { glyphAtlas, renderText } from '../../src/realtime/media/plane/recorder/glyphs.js';
import { Picture, yuvOf } from '../../src/realtime/media/plane/recorder/picture.js';
import { readIvf, CLIP_DIR, CLIP_VIDEO_FILE } from '../../src/realtime/media/plane/clip.js';
import { recordingFormats, outputFileName, audioFileName, FORMATS } from '../../src/domain/recordings/recording-formats.js';
import { RecordingEvicted, RecordingFailed, RecordingFiles } from '../../src/domain/recordings/recording-files.js';
import { DEFAULT_AUDIO, DEFAULT_VIDEO } from '../../src/domain/recordings/recording-config.js';
import { mediaFilesIn } from '../../src/domain/media/media-links.js';
import { PACKAGE_ROOT } from '../../src/core/package-info.js';
import { FfmpegProcess } from '../../src/realtime/media/plane/recorder/ffmpeg-process.js';
import { TimelineEncoder } from '../../src/realtime/media/plane/recorder/timeline-encoder.js';
import { probe, withFfmpeg } from '../helpers/media-probe.js';
import { encoderArgs } from '../../src/realtime/media/plane/recorder/composite-recording.js';
import type { RecorderSpec } from '../../src/realtime/media/media-types.js';

describe('where the tiles go (1280 × 720, 8 px apart and around)', () => {
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);

  it.each([
    [1, [{ x: 14, y: 8, w: 1250, h: 704 }]],
    [
      2,
      [
        { x: 8, y: 184, w: 628, h: 352 },
        { x: 644, y: 184, w: 628, h: 352 },
      ],
    ],
    [
      3,
      [
        { x: 18, y: 8, w: 618, h: 348 },
        { x: 644, y: 8, w: 618, h: 348 },
        { x: 330, y: 364, w: 618, h: 348 },
      ],
    ],
  ])('%d participants: a grid of equal 16:9 tiles, rows centred', (n, expected) => {
    const rects = layoutTiles(1280, 720, { people: keys(n), screens: [], pinned: [] });
    expect([...rects.values()]).toEqual(expected);
  });

  it.each([4, 5, 6, 9, 12, 25])('%d participants: every tile inside the picture, none overlapping, all the same 16:9 size', (n) => {
    const rects = [...layoutTiles(1280, 720, { people: keys(n), screens: [], pinned: [] }).values()];
    expect(rects).toHaveLength(n);
    for (const r of rects) {
      expect(r.x).toBeGreaterThanOrEqual(0);
      expect(r.y).toBeGreaterThanOrEqual(0);
      expect(r.x + r.w).toBeLessThanOrEqual(1280);
      expect(r.y + r.h).toBeLessThanOrEqual(720);
      expect(Math.abs(r.w / r.h - 16 / 9)).toBeLessThan(0.02);
      expect([r.w, r.h]).toEqual([rects[0]!.w, rects[0]!.h]);
    }
    for (const a of rects) for (const b of rects) if (a !== b) expect(a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y).toBe(true);
  });

  it('a screen share takes the main area on the left, everyone else in a column on the right', () => {
    const rects = layoutTiles(1280, 720, { people: keys(3), screens: ['s'], pinned: [] });
    const screen = rects.get('s')!;
    expect(screen.x).toBe(8);
    expect(screen.w).toBeGreaterThan(900);
    for (const k of keys(3)) {
      const r = rects.get(k)!;
      expect(r.x).toBeGreaterThan(screen.x + screen.w);
      expect(r.w).toBeLessThan(300);
    }
  });

  it('without a screen share the pinned participant takes the main area', () => {
    const rects = layoutTiles(1280, 720, { people: keys(4), screens: [], pinned: ['p2'] });
    expect(rects.get('p2')!.w).toBeGreaterThan(900);
    expect(rects.get('p0')!.x).toBeGreaterThan(rects.get('p2')!.x + rects.get('p2')!.w);
  });

  it('in a portrait picture the strip runs along the bottom', () => {
    const rects = layoutTiles(720, 1280, { people: keys(2), screens: ['s'], pinned: [] });
    const screen = rects.get('s')!;
    expect(rects.get('p0')!.y).toBeGreaterThan(screen.y + screen.h);
  });

  it('nobody in the meeting: no tiles', () => {
    expect(layoutTiles(1280, 720, { people: [], screens: [], pinned: [] }).size).toBe(0);
  });
});

describe('Matroska, as the encoders and decoders read it', () => {
  it.each([
    [0, '80'],
    [126, 'fe'],
    [127, '407f'],
    [16382, '7ffe'],
    [16383, '203fff'],
  ])('an element of %d bytes has the size %s', (n, hex) => {
    expect(vintSize(n).toString('hex')).toBe(hex);
  });

  it('opens with the EBML header, and starts a cluster at the first frame, after 30 s and with a keyframe 2 s on', () => {
    const chunks: Buffer[] = [];
    const w = new MatroskaWriter([{ kind: 'audio', codecId: 'A_OPUS', sampleRate: 48_000, channels: 2, codecPrivate: opusHead(2, 0) }], (b) => chunks.push(b));
    expect(chunks[0]!.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    const clusters = () => chunks.filter((c) => c.subarray(0, 4).toString('hex') === '1f43b675').length;
    w.frame(1, 0, Buffer.from([1]), true);
    expect(clusters()).toBe(1);
    w.frame(1, 1_000, Buffer.from([1]), false);
    expect(clusters()).toBe(1);
    w.frame(1, 2_500, Buffer.from([1]), true);
    expect(clusters()).toBe(2);
    w.frame(1, 40_000, Buffer.from([1]), false);
    expect(clusters()).toBe(3);
  });

  it('the Opus head says OpusHead, its channels and pre-skip', () => {
    const head = opusHead(2, 312);
    expect(head.toString('latin1', 0, 8)).toBe('OpusHead');
    expect([head[9], head.readUInt16LE(10), head.readUInt32LE(12)]).toEqual([2, 312, 48_000]);
  });
});

describe("a recording's timeline on the plane's real time", () => {
  it('moves at its rate from where it was set, stands still when paused or on the manual clock, never back', () => {
    const t = new RecordingTimeline();
    expect(t.paused).toBe(true);
    expect(t.set({ recordedMs: 0, rate: 1, paused: false }, 1_000)).toBe(0);
    expect(t.at(1_500)).toBe(500);
    expect(t.set({ recordedMs: 400, rate: 20, paused: false }, 1_500)).toBe(500);
    expect(t.at(1_600)).toBe(2_500);
    t.set({ recordedMs: 2_500, rate: 20, paused: true }, 1_600);
    expect(t.at(9_999)).toBe(2_500);
    t.set({ recordedMs: 60_000, rate: 0, paused: false }, 10_000);
    expect(t.at(20_000)).toBe(60_000);
  });
});

describe('what a keyframe says of its picture', () => {
  it("reads a VP8 keyframe's width and height (the clip's)", () => {
    const { frames } = readIvf(readFileSync(path.join(CLIP_DIR, CLIP_VIDEO_FILE)));
    expect(keyframeSize('VP8', frames[0]!.data)).toEqual({ width: 320, height: 180 });
    expect(keyframeSize('VP8', frames[1]!.data)).toBeUndefined();
  });

  it("reads a VP9 keyframe's uncompressed header", () => {
    // frame marker 2, profile 0, not shown-existing, key frame, shown, not error resilient; sync
    // code 49 83 42; colour space 1 (BT.601) and full range; width-1 639, height-1 359.
    const bits =
      '10' +
      '0' +
      '0' +
      '0' +
      '0' +
      '1' +
      '0' +
      (0x498342).toString(2).padStart(24, '0') +
      '001' +
      '0' +
      (639).toString(2).padStart(16, '0') +
      (359).toString(2).padStart(16, '0');
    const bytes = Buffer.alloc(Math.ceil(bits.length / 8) + 2);
    for (let i = 0; i < bits.length; i++) if (bits[i] === '1') bytes[i >> 3]! |= 0x80 >> (i & 7);
    expect(keyframeSize('VP9', bytes)).toEqual({ width: 640, height: 360 });
  });
});

describe('names on the tiles', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['bob', 'B'],
    ['  Jean  Claude  Van Damme ', 'JD'],
    ['Émile Zola', 'ÉZ'],
    ['', '?'],
  ])('%j → %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });

  it('writes a line of text no wider than asked, cut with an ellipsis', () => {
    const full = renderText(glyphAtlas(), 'Ada Lovelace', 20);
    expect(full.height).toBe(20);
    expect(full.width).toBeGreaterThan(80);
    expect(Math.max(...full.alpha)).toBe(255);
    const cut = renderText(glyphAtlas(), 'Ada Lovelace', 20, 60);
    expect(cut.width).toBeLessThanOrEqual(60);
  });

  it('fills and shades a picture in its colours (BT.601, limited range)', () => {
    const p = new Picture(4, 4);
    p.fill({ x: 0, y: 0, w: 4, h: 4 }, yuvOf({ r: 255, g: 255, b: 255 }));
    expect([p.data[0], p.data[16], p.data[20]]).toEqual([235, 128, 128]);
    p.shade({ x: 0, y: 0, w: 4, h: 4 }, yuvOf({ r: 0, g: 0, b: 0 }), 0.5);
    expect(p.data[0]).toBe(126);
  });
});

describe('an encoder that hangs', () => {
  it('is killed once its input has ended and it has not finished within a minute (and the length / 20): finish() rejects, saying so', async () => {
    // An "ffmpeg" that reads its whole input and then never exits, as a stuck encoder would.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hung-encoder-'));
    const script = path.join(dir, 'ffmpeg');
    writeFileSync(script, '#!/bin/sh\ncat > /dev/null\nexec sleep 600\n', { mode: 0o755 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let encoder: TimelineEncoder | undefined;
    try {
      const failed: string[] = [];
      encoder = new TimelineEncoder({ ffmpeg: script, outputArgs: [], onFailed: (reason) => failed.push(reason) });
      const finished = encoder.finish(2_000, () => new Uint8Array(0));
      const outcome = finished.then(
        () => 'finished',
        (err: Error) => err.message,
      );
      // Its length is 2 s: the limit is 60 s + 0.1 s. Just before it, the encoder is still waited for.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(await Promise.race([outcome, Promise.resolve('waiting')])).toBe('waiting');
      await vi.advanceTimersByTimeAsync(200);
      expect(await outcome).toBe('the encoder did not finish within 60 s');
      await encoder.exited;
      // The end was asked for: that it then ended is no unexpected failure.
      expect(failed).toEqual([]);
    } finally {
      // Whatever the test found, no encoder is left behind.
      encoder?.cancel();
      vi.useRealTimers();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the meeting's sound", () => {
  /** 16-bit stereo samples, as the voices' decoders give them. */
  const pcm = (...values: number[]) => {
    const b = Buffer.alloc(values.length * 2);
    values.forEach((v, i) => b.writeInt16LE(v, i * 2));
    return b;
  };
  const values = (b: Buffer) => Array.from({ length: b.length / 2 }, (_, i) => b.readInt16LE(i * 2));

  it('mixes every voice sample by sample, clipped to 16 bits', () => {
    const ada = pcm(1000, -1000, 30000, -30000);
    const bob = pcm(200, 300, 10000, -10000);
    const cleo = pcm(-50, 0, 0, -5000);
    expect(values(mixed([ada, bob, cleo], 2))).toEqual([1150, -700, 32767, -32768]);
    expect(values(mixed([ada], 2))).toEqual([1000, -1000, 30000, -30000]);
  });
});

describe('the files each recording makes', () => {
  const composite = { kind: 'composite' as const, video: { ...DEFAULT_VIDEO }, audio: { ...DEFAULT_AUDIO }, exportAudio: true };

  it.each([
    ['the defaults', composite, FORMATS.mp4, FORMATS.m4a],
    ['VP8', { ...composite, video: { ...DEFAULT_VIDEO, codec: 'VP8' as const } }, FORMATS.webm, FORMATS.ogg],
    ['MP3 audio', { ...composite, audio: { codec: 'MP3' as const, channel: 'mono' as const } }, FORMATS.mp4, FORMATS.mp3],
    ['no separate audio file', { ...composite, exportAudio: false }, FORMATS.mp4, null],
    ['no video file: the audio file is the recording', { ...composite, exportAudio: false, video: { ...DEFAULT_VIDEO, exportFile: false } }, null, FORMATS.m4a],
    ['a track recording', { ...composite, kind: 'track' as const }, FORMATS.webm, null],
  ])('%s', (_name, r, video, audio) => {
    expect(recordingFormats(r, true)).toEqual({ video, audio });
  });

  it('without a recorder every recording is the sample: MP4, and M4A unless asked not to', () => {
    expect(recordingFormats({ ...composite, video: { ...DEFAULT_VIDEO, codec: 'VP8' } }, false)).toEqual({ video: FORMATS.mp4, audio: FORMATS.m4a });
    expect(recordingFormats({ ...composite, exportAudio: false }, false)).toEqual({ video: FORMATS.mp4, audio: null });
  });

  it('names: prefix, meeting, start time and the extension; the audio file beside it', () => {
    expect(outputFileName('weekly', 'm1', 42, FORMATS.webm)).toBe('weekly_m1_42.webm');
    expect(outputFileName(undefined, 'm1', 42, FORMATS.mp4)).toBe('m1_42.mp4');
    expect(audioFileName('weekly_m1_42.mp4', FORMATS.mp3)).toBe('weekly_m1_42.mp3');
  });
});

describe("recordings' files on disk", () => {
  const sample = mediaFilesIn(path.join(PACKAGE_ROOT, 'fixtures', 'media'));
  const file = (name: string, bytes: number) => ({ path: `/nowhere/${name}`, name, bytes, contentType: 'video/mp4' });
  const rec = (id: string) => ({ id, orgId: 'org', outputFileName: `${id}.mp4` });

  it('without files of its own a recording is the sample under its names', () => {
    const files = new RecordingFiles({ real: false, why: 'none', limitBytes: 1_000, sample });
    expect(files.whenComplete(rec('r1'))).toEqual({
      video: { path: sample.video.file, name: 'r1.mp4', bytes: sample.video.bytes, contentType: 'video/mp4' },
      audio: { path: sample.audio.file, name: 'r1.m4a', bytes: sample.audio.bytes, contentType: 'audio/mp4' },
    });
    files.close();
  });

  it('expected before its recorder begins: a wait for its files waits for that recorder, which takes the wait over; nothing is expected without a recorder, or once there are files', async () => {
    const sampleOnly = new RecordingFiles({ real: false, why: 'none', limitBytes: 1_000, sample });
    sampleOnly.expect(rec('r0'));
    expect(sampleOnly.expected()).toEqual([]);
    expect(sampleOnly.whenComplete(rec('r0'))).toEqual(sampleOnly.sampleFor(rec('r0')));
    sampleOnly.close();

    const files = new RecordingFiles({ real: true, limitBytes: 1_000_000, sample });
    files.expect(rec('r1'));
    await files.begin(rec('r2'));
    files.expect(rec('r2'));
    expect(files.expected()).toEqual(['r1']);
    const waiting = files.whenComplete(rec('r1'));
    expect(waiting).toBeInstanceOf(Promise);
    await files.begin(rec('r1'));
    expect(files.expected()).toEqual([]);
    const artifacts = { video: file('r1.mp4', 10), audio: null };
    files.ready('r1', artifacts);
    await expect(waiting).resolves.toEqual(artifacts);
    // A recording of the same id again (ids repeat after a reset) writes in a folder of its own.
    const first = await files.begin(rec('r3'));
    files.forget('r3');
    const again = await files.begin(rec('r3'));
    expect([path.basename(first), path.basename(again)]).toEqual([expect.stringMatching(/^r3-\d+$/), expect.stringMatching(/^r3-\d+$/)]);
    expect(again).not.toBe(first);
    files.close();
  });

  it('a recorder that begins as the emulator stops leaves no folder: its begin fails, saying so, and one after the stop makes none, nor does a recorder expected then', async () => {
    // The stop removes the folder at once, while the recorder's own folder is still being made:
    // that must not make the recordings' folder again (the order of the two differs run by run).
    // The recordings' folders go in a temporary folder of this test's own, which must end empty.
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'recording-files-stop-'));
    vi.stubEnv('TMPDIR', tmp);
    try {
      for (let i = 0; i < 20; i++) {
        const files = new RecordingFiles({ real: true, limitBytes: 1_000_000, sample });
        await files.begin(rec('r1'));
        const began = files.begin(rec('r2'));
        files.close();
        await expect(began).rejects.toThrow(new RecordingFailed('The emulator stopped'));
        await expect(files.begin(rec('r3'))).rejects.toThrow(new RecordingFailed('The emulator stopped'));
        files.expect(rec('r4'));
        expect(files.expected()).toEqual([]);
        expect(readdirSync(tmp), `what is left after stop ${i + 1}`).toEqual([]);
      }
    } finally {
      // TMPDIR back before its folder goes, whatever runs this file (vitest's unstubEnvs would do it after the test).
      vi.unstubAllEnvs();
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("the recordings' folder removed from outside (a cleaner of the temporary folder): a recorder that begins then fails with the system's error, and the stop goes through", async () => {
    const files = new RecordingFiles({ real: true, limitBytes: 1_000_000, sample });
    const root = path.dirname(await files.begin(rec('r1')));
    rmSync(root, { recursive: true, force: true });
    await expect(files.begin(rec('r2'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => files.close()).not.toThrow();
  });

  it('complete once the recorder is done; failed with its reason; a link serves its own file by name', async () => {
    const files = new RecordingFiles({ real: true, limitBytes: 1_000_000, sample });
    await files.begin(rec('r1'));
    files.progress('r1', 500);
    expect(files.bytesOf('r1')).toBe(500);
    const done = files.whenComplete(rec('r1'));
    files.ready('r1', { video: file('r1.mp4', 700), audio: null });
    await expect(done).resolves.toEqual({ video: file('r1.mp4', 700), audio: null });
    expect(files.fileFor(rec('r1'), 'r1.mp4')).toEqual(file('r1.mp4', 700));
    expect(files.fileFor(rec('r1'), 'r1.m4a')).toBeUndefined();
    await files.begin(rec('r2'));
    const failing = files.whenComplete(rec('r2'));
    files.failed('r2', 'the encoder failed');
    await expect(failing).rejects.toThrow(RecordingFailed);
    expect(() => files.whenComplete(rec('r2'))).toThrow('the encoder failed');
    files.close();
  });

  it('over the disk limit the oldest finished files go first (their links answer gone); in-progress alone over it, the largest is stopped', async () => {
    const files = new RecordingFiles({ real: true, limitBytes: 1_000, sample });
    const stopped: string[] = [];
    files.onOverLimit((id) => stopped.push(id));
    for (const id of ['old', 'new']) {
      await files.begin(rec(id));
      files.ready(id, { video: file(`${id}.mp4`, 400), audio: null });
    }
    await files.begin(rec('live'));
    files.progress('live', 300); // 1 100 bytes in all: the oldest finished goes
    expect(files.bytes).toBe(700);
    expect(() => files.fileFor(rec('old'), 'old.mp4')).toThrow(RecordingEvicted);
    expect(files.fileFor(rec('new'), 'new.mp4')).toBeDefined();
    expect(stopped).toEqual([]);
    files.progress('live', 1_200);
    expect(() => files.fileFor(rec('new'), 'new.mp4')).toThrow(RecordingEvicted);
    expect(stopped).toEqual(['live']);
    files.close();
  });
});

describe.runIf(withFfmpeg)("an ffmpeg's input pipe, full", () => {
  it('writes made while it is full share one wait for its room, which ends false once the process is gone', async () => {
    // 320 × 180 I420 frames, read at one a second: the pipe is soon full.
    const ffmpeg = new FfmpegProcess('ffmpeg', [
      '-re',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'yuv420p',
      '-video_size',
      '320x180',
      '-framerate',
      '1',
      '-i',
      'pipe:0',
      '-f',
      'null',
      '-',
    ]);
    const frame = Buffer.alloc(320 * 180 * 1.5, 16);
    const waits = Array.from({ length: 30 }, () => ffmpeg.write(frame));
    // The first writes may go straight into the pipe; from the first that finds it full on, one wait.
    const pending = waits.filter((w) => w instanceof Promise);
    expect(pending.length).toBeGreaterThan(20);
    expect(new Set(pending).size).toBe(1);
    expect(ffmpeg.writable).toBe(false);
    ffmpeg.kill();
    await ffmpeg.exited;
    expect(await pending[0]).toBe(false);
  });
});

describe.runIf(withFfmpeg)('the encoder of a composite recording', () => {
  /** `seconds` of pictures and sound, in the Matroska the recorder writes (raw I420, 16-bit stereo at 48 kHz). */
  function rawInput(dir: string, seconds = 1): string {
    const file = path.join(dir, 'input.mkv');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
      ...[
        '-f',
        'lavfi',
        '-i',
        `testsrc=size=64x48:rate=25:duration=${seconds}`,
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
      ],
      ...['-c:v', 'rawvideo', '-pix_fmt', 'yuv420p', '-c:a', 'pcm_s16le', '-ac', '2', '-f', 'matroska', file],
    ]);
    return file;
  }

  it.each([
    ['AAC', 'ipod', 'aac', 'm4a'],
    ['MP3', 'mp3', 'mp3', 'mp3'],
  ] as const)(
    'H.264 with a separate %s file: the sound encoded once for both files, at paths with characters the list of files gives a meaning to',
    (codec, format, codecName, ext) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "encoder a'b|c\\d "));
      try {
        const spec: RecorderSpec = {
          id: 'r1',
          ffmpeg: 'ffmpeg',
          meetingId: 'm1',
          kind: 'composite',
          video: { codec: 'H264', width: 64, height: 48, watermark: null, path: path.join(dir, ' the video.mp4 ') },
          audio: { codec, channels: 2, path: path.join(dir, `the 'sound'|.${ext}`) },
        };
        const args = encoderArgs(spec);
        // One output: the tee muxer writes both files.
        expect(args.filter((a) => a === '-f')).toHaveLength(1);
        expect(args[args.indexOf('-f') + 1]).toBe('tee');
        execFileSync('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'matroska', '-i', rawInput(dir), ...args]);
        const video = probe(spec.video.path!);
        expect(video.format.format_name).toContain('mp4');
        expect(video.streams.map((s) => [s.codec_name, s.width ?? s.channels])).toEqual([
          ['h264', 64],
          [codecName, 2],
        ]);
        const audio = probe(spec.audio.path!);
        expect(audio.format.format_name).toContain(format === 'ipod' ? 'mp4' : 'mp3');
        expect(audio.streams.map((s) => [s.codec_name, s.channels])).toEqual([[codecName, 2]]);
        for (const p of [video, audio]) expect(Math.abs(Number(p.format.duration) - 1)).toBeLessThanOrEqual(0.1);
        // The MP4 and M4A have their index (moov) ahead of the media (mdat).
        if (format === 'ipod')
          for (const file of [spec.video.path!, spec.audio.path!]) {
            const bytes = readFileSync(file);
            expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
          }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.each(['H264', 'VP8'] as const)('%s: a keyframe every 4 s, where a player seeking in the file starts decoding', (codec) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'keyframes-'));
    try {
      const file = path.join(dir, codec === 'VP8' ? 'video.webm' : 'video.mp4');
      const spec: RecorderSpec = {
        id: 'r1',
        ffmpeg: 'ffmpeg',
        meetingId: 'm1',
        kind: 'composite',
        video: { codec, width: 64, height: 48, watermark: null, path: file },
        audio: { codec: codec === 'VP8' ? 'VORBIS' : 'AAC', channels: 2, path: null },
      };
      execFileSync('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'matroska', '-i', rawInput(dir, 10), ...encoderArgs(spec)]);
      const keyframes = execFileSync(
        'ffprobe',
        ['-v', 'error', '-select_streams', 'v:0', '-skip_frame', 'nokey', '-show_entries', 'frame=pts_time', '-of', 'csv=p=0', file],
        { encoding: 'utf8' },
      )
        // A frame with side data ends its line with a comma and adds an empty line.
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((t) => Math.round(Number(t)));
      expect(keyframes).toEqual([0, 4, 8]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('VP8 with its Ogg Vorbis file: two outputs, each encoding the sound', () => {
    const spec: RecorderSpec = {
      id: 'r1',
      ffmpeg: 'ffmpeg',
      meetingId: 'm1',
      kind: 'composite',
      video: { codec: 'VP8', width: 64, height: 48, watermark: null, path: '/tmp/x.webm' },
      audio: { codec: 'VORBIS', channels: 2, path: '/tmp/x.ogg' },
    };
    const args = encoderArgs(spec);
    expect(args.filter((a) => a === '-f')).toEqual(['-f', '-f']);
    expect(args).not.toContain('tee');
  });
});
