// A recording of a meeting where a page takes part, decoded: the page's own camera beside a
// scripted participant's clip, its screen share large with the others in a strip, and a pin that
// gives the main area to the pinned participant, span by span of the manual clock. The recorder is
// nobody the page sees: no participant joins, in the page or in the REST API, while it records.
// The real RealtimeKit SDK in Debian's Chromium with its fake camera and screen. The three
// pictures go to docs/images/recording-layouts.png, where docs/recordings.md shows them.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { endAll } from '../helpers/end-all.js';
import { probe, withFfmpeg } from '../helpers/media-probe.js';
import { joinPage } from '../helpers/page-media.js';
import { RecorderWorld, showsClip, thumbnail, meanDifference, type Box } from '../helpers/recorder.js';
import { CHROMIUM, Frontend, SDKS, addPerson } from '../helpers/web-sdk.js';

/** Generous: a shared CI machine can be slow. */
const WAIT = 30_000;
const sdk = SDKS.find((s) => s.name === '@cloudflare/realtimekit')!;

// The kits' layouts in a 1280 × 720 picture, 8 px apart and around: two tiles side by side; a
// screen share (or a pinned participant) in the main area on the left, the others in a column on
// the right, centred.
const TWO: Box[] = [
  { x: 8, y: 184, w: 628, h: 352 },
  { x: 644, y: 184, w: 628, h: 352 },
];
const MAIN: Box = { x: 8, y: 84, w: 984, h: 552 };
const STRIP_OF_TWO: Box[] = [
  { x: 1000, y: 204, w: 272, h: 152 },
  { x: 1000, y: 364, w: 272, h: 152 },
];
const STRIP_OF_ONE: Box = { x: 1000, y: 284, w: 272, h: 152 };
/** The composite's background, where no tile is. */
const BACKGROUND = Buffer.alloc(32 * 18 * 3, 20);

describe.skipIf((!existsSync(CHROMIUM) || !withFfmpeg) && !process.env.CI)('a recording of a meeting with a page in it', () => {
  let emu: RunningEmulator;
  let frontend: Frontend;
  let w: RecorderWorld;

  beforeAll(async () => {
    emu = await startEmulator({ seed: 'recording-browser', tlsPort: 0 });
    w = new RecorderWorld(emu);
    frontend = await Frontend.start(sdk, emu);
  });
  afterAll(() =>
    endAll(
      () => frontend?.close(),
      () => emu?.close(),
      () => w?.close(),
    ),
  );

  const run = <T>(page: Page, body: string): Promise<T> => page.evaluate<T>(`(async () => { const m = window.meeting; ${body} })()`);

  it(
    "shows the page's camera, then its screen share large, then the pinned participant large; the recorder joins nobody's list",
    async () => {
      const meetingId = await w.meeting('With a page');
      await w.bot(meetingId, 'Ada', { video: true });
      const cleo = await addPerson(emu, meetingId, 'Cleo');
      const page = await joinPage(sdk, frontend, cleo, { audio: false, video: true });
      const r = await w.record({ meeting_id: meetingId });
      await w.camerasDecoded(r.id, ['Ada', 'Cleo']);
      await emu.advance(10_000); // 0–10 s: Ada and Cleo side by side

      await run(page, 'await m.self.enableScreenShare(); return null;');
      await w.recorderUntil(r.id, (tiles) => (tiles.find((t) => t.name === 'Cleo')?.screen?.decoded ?? 0) > 0);
      await emu.advance(10_000); // 10–20 s: Cleo's screen large, Ada and Cleo in the strip

      await run(page, 'await m.self.disableScreenShare(); return null;');
      await run(page, "await m.participants.joined.toArray().find((p) => p.name === 'Ada').pin(); return null;");
      await w.recorderUntil(r.id, (tiles) => tiles.find((t) => t.name === 'Ada')?.pinned === true && tiles.every((t) => t.screen === null));
      await emu.advance(10_000); // 20–30 s: Ada large, Cleo in the strip

      // Nobody but Ada in the page's list; the meeting's presence and its REST participants are Ada and Cleo.
      expect(await run<string[]>(page, 'return m.participants.joined.toArray().map((p) => p.name);')).toEqual(['Ada']);
      const presence = await w.control('GET', `/_emulator/meetings/${meetingId}/presence`);
      expect((presence.body.participants as { name: string }[]).map((p) => p.name).sort()).toEqual(['Ada', 'Cleo']);
      expect((await w.rest<{ name: string }[]>('GET', `/v2/meetings/${meetingId}/participants`)).map((p) => p.name).sort()).toEqual(['Ada', 'Cleo']);

      const done = await w.stopAndUpload(r.id);
      expect(done.status).toBe('UPLOADED');
      const video = await w.download(done.download_url!);
      expect(Math.abs(Number(probe(video.file).format.duration) - 30)).toBeLessThanOrEqual(1);

      // 5 s: Ada's clip on the left; Cleo's fake camera on the right (a picture, not the clip, not the background).
      expect(showsClip(video.file, 5, TWO[0]!)).toBe(true);
      expect(showsClip(video.file, 5, TWO[1]!)).toBe(false);
      expect(meanDifference(thumbnail(video.file, 5, TWO[1]!), BACKGROUND)).toBeGreaterThan(20);
      // 15 s: the screen large, Ada's clip at the top of the strip.
      expect(meanDifference(thumbnail(video.file, 15, MAIN), BACKGROUND)).toBeGreaterThan(20);
      expect(showsClip(video.file, 15, MAIN)).toBe(false);
      expect(showsClip(video.file, 15, STRIP_OF_TWO[0]!)).toBe(true);
      // 25 s: Ada pinned, large; Cleo alone in the strip.
      expect(showsClip(video.file, 25, MAIN)).toBe(true);
      expect(showsClip(video.file, 25, STRIP_OF_ONE)).toBe(false);
      expect(meanDifference(thumbnail(video.file, 25, STRIP_OF_ONE), BACKGROUND)).toBeGreaterThan(20);
      expect(frontend.pageErrors).toEqual([]);

      // The three layouts side by side, for the docs.
      execFileSync('ffmpeg', [
        ...['-v', 'error', '-i', video.file],
        ...['-vf', 'fps=1,select=eq(n\\,5)+eq(n\\,15)+eq(n\\,25),scale=640:360,tile=3x1', '-frames:v', '1', '-y'],
        path.join(import.meta.dirname, '..', '..', 'docs', 'images', 'recording-layouts.png'),
      ]);
    },
    6 * WAIT,
  );
});
