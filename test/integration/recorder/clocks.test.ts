// A recording's file lasts its recording_duration on the real clock and a sped-up one too (on the
// real clock, the picture moving as the clip plays), and is complete when the UPLOADED webhook says
// so (its link, fetched as the webhook arrives, serves the whole file); an encoder that dies ends
// its recording ERRORED, with the webhook, never a stuck UPLOADING; the first recording of a fresh
// emulator on the manual clock, done in one go, holds the meeting too, and so does a recording
// after a reset, which has its namesake's seeded id. A media and network test: the emulator in
// this process with a running clock, its media plane and encoders in theirs, a webhook receiver on
// this machine. Real time passes here: the waits read the recorder's own state (how far its
// timeline got), never a sleep of a guessed length.
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { frameAt, probe, withFfmpeg } from '../../helpers/media-probe.js';
import { RecorderWorld, pixelsChanged, showsClip, type RecordingDto } from '../../helpers/recorder.js';
import { layoutTiles } from '../../../src/realtime/media/plane/recorder/layout.js';
import { readUntil } from '../../helpers/web-sdk.js';
import { Receiver } from '../../helpers/webhook-receiver.js';

let emu: RunningEmulator | undefined;
let w: RecorderWorld | undefined;

afterEach(async () => {
  await emu?.close();
  w?.close();
  emu = undefined;
  w = undefined;
});

/** An emulator on a running clock whose recorder joins and whose uploads finish in moments. */
async function runningClock(timeScale: number): Promise<RecorderWorld> {
  emu = await startEmulator({ seed: 'recorder-clocks', clock: 'real', timeScale });
  w = new RecorderWorld(emu);
  const patched = await w.control('PATCH', '/_emulator/simulator', {
    recording: { start_delay_ms: 100, upload_base_ms: 500, upload_ms_per_recorded_minute: 0 },
  });
  expect(patched.status).toBe(200);
  return w;
}

async function until(id: string, done: (r: RecordingDto) => boolean): Promise<RecordingDto> {
  const r = await readUntil(() => w!.recording(id), done, 60_000, 50);
  expect(done(r), JSON.stringify(r)).toBe(true);
  return r;
}

/** How far the recorder's timeline got (ms), or -1 while none runs. */
async function position(id: string): Promise<number> {
  const res = await w!.control('GET', `/_emulator/recordings/${id}/recorder`);
  return res.status === 200 ? (res.body.position_ms as number) : -1;
}

describe.runIf(withFfmpeg)('durations that agree under a running clock', () => {
  it.each([
    ['the real clock', 1, 4_000],
    ['a clock 20 times faster', 20, 40_000],
  ])('%s: the file lasts recording_duration, and is whole when the UPLOADED webhook arrives', async (_name, scale, recordMs) => {
    const world = await runningClock(scale);
    // The UPLOADED webhook's link is fetched the moment the webhook arrives, before it is answered.
    let fetchedOnArrival: ReturnType<RecorderWorld['download']> | undefined;
    const receiver = await Receiver.start((_index, hook) => {
      const recording = hook.json.recording as { status?: string; downloadUrl?: string } | undefined;
      if (recording?.status === 'UPLOADED' && fetchedOnArrival === undefined) fetchedOnArrival = world.download(recording.downloadUrl!);
      return 200;
    });
    try {
      await world.rest('POST', '/v2/webhooks', { name: 'recordings', url: receiver.url(), events: ['recording.statusUpdate'] });
      const meetingId = await world.meeting();
      await world.bot(meetingId, 'Ada', { audio: true, video: true });
      const started = await world.rest<RecordingDto>('POST', '/v2/recordings', { meeting_id: meetingId });
      await until(started.id, (r) => r.status === 'RECORDING');
      await readUntil(
        () => position(started.id),
        (ms) => ms >= recordMs,
        60_000,
        50,
      );
      await world.rest('PUT', `/v2/recordings/${started.id}`, { action: 'stop' });
      const done = await until(started.id, (r) => r.status === 'UPLOADED' || r.status === 'ERRORED');
      expect(done.status).toBe('UPLOADED');
      const video = await world.download(done.download_url!);
      expect(video.bytes).toBe(done.file_size);
      const seconds = Number(probe(video.file).format.duration);
      expect(Math.abs(seconds - done.recording_duration!)).toBeLessThanOrEqual(1);
      if (scale === 1) {
        // The picture moves as Ada's clip plays (its counter counts its frames), not one picture held;
        // and it is her clip that shows, the whole grid being her tile.
        const box = layoutTiles(1280, 720, { people: ['ada'], screens: [], pinned: [] }).get('ada')!;
        expect([showsClip(video.file, 1, box), showsClip(video.file, 3, box)]).toEqual([true, true]);
        const changed = pixelsChanged(frameAt(video.file, 1).rgb, frameAt(video.file, 3).rgb, 90);
        expect(changed, 'pixels that changed between 1 s and 3 s').toBeGreaterThan(10_000);
      }
      // The webhook's link, fetched as it arrived, served the same whole file.
      await readUntil(
        async () => fetchedOnArrival,
        (f) => f !== undefined,
        30_000,
        50,
      );
      const fromHook = await fetchedOnArrival!;
      expect(fromHook.bytes).toBe(done.file_size);
      expect(Math.abs(Number(probe(fromHook.file).format.duration) - done.recording_duration!)).toBeLessThanOrEqual(1);
    } finally {
      await receiver.close();
    }
  });
});

describe.runIf(withFfmpeg)('the manual clock on a fresh emulator', () => {
  it("its first recording, started, stopped and uploaded in one go while the rooms that record it are still loading, holds the meeting's minute, not the sample", async () => {
    emu = await startEmulator({ seed: 'recorder-first-recording', clock: 'manual' });
    w = new RecorderWorld(emu);
    const meetingId = await w.meeting('The first of the run');
    const started = await w.rest<RecordingDto>('POST', '/v2/recordings', { meeting_id: meetingId });
    // The rooms run the recorder and are loaded when a recording first starts: none of these steps waits for them.
    await emu.advance(3_000);
    await emu.advance(60_000);
    expect((await w.rest<RecordingDto>('PUT', `/v2/recordings/${started.id}`, { action: 'stop' })).status).toBe('UPLOADING');
    await emu.advance(15_000);
    const done = await until(started.id, (r) => r.status !== 'UPLOADING');
    expect(done.status).toBe('UPLOADED');
    expect(done.recording_duration).toBe(60);
    const video = await w.download(done.download_url!);
    expect(video.bytes).toBe(done.file_size);
    const file = probe(video.file);
    expect(Math.abs(Number(file.format.duration) - 60)).toBeLessThanOrEqual(1);
    expect(file.streams.find((st) => st.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
  });
});

describe.runIf(withFfmpeg)('a reset between recordings', () => {
  it('the next recording has the same seeded id as the one the reset let go, and files of its own: UPLOADED, the whole minute', async () => {
    emu = await startEmulator({ seed: 'recorder-after-reset', clock: 'manual' });
    w = new RecorderWorld(emu);
    const oneMinute = async () => {
      const meetingId = await w!.meeting('Again');
      const started = await w!.rest<RecordingDto>('POST', '/v2/recordings', { meeting_id: meetingId });
      await emu!.advance(63_000);
      await w!.rest('PUT', `/v2/recordings/${started.id}`, { action: 'stop' });
      await emu!.advance(15_000);
      return until(started.id, (r) => r.status !== 'UPLOADING');
    };
    const first = await oneMinute();
    expect(first.status).toBe('UPLOADED');
    await emu.reset();
    // The folder of the first goes after the reset has answered, while the second begins.
    const second = await oneMinute();
    expect(second.id).toBe(first.id);
    expect(second.status, JSON.stringify(second)).toBe('UPLOADED');
    const video = await w.download(second.download_url!);
    expect(video.bytes).toBe(second.file_size);
    expect(Math.abs(Number(probe(video.file).format.duration) - 60)).toBeLessThanOrEqual(1);
  });
});

describe.runIf(withFfmpeg)('an encoder that dies', () => {
  it('ends its recording ERRORED, with the webhook, and a stop is then refused', async () => {
    emu = await startEmulator({ seed: 'recorder-crash' });
    w = new RecorderWorld(emu);
    const receiver = await Receiver.start();
    await w.rest('POST', '/v2/webhooks', { name: 'recordings', url: receiver.url(), events: ['recording.statusUpdate'] });
    const meetingId = await w.meeting();
    await w.bot(meetingId, 'Ada', { video: true });
    const r = await w.record({ meeting_id: meetingId });
    await w.camerasDecoded(r.id, ['Ada']);
    await emu.advance(5_000);
    // The encoder is the one ffmpeg that writes into the recording's own folder (named by its id and a number).
    execFileSync('pkill', ['-KILL', '-f', `${r.id}-[0-9]+/`]);
    const errored = await readUntil(
      () => w!.recording(r.id),
      (x) => x.status === 'ERRORED',
      20_000,
      50,
    );
    expect(errored.status).toBe('ERRORED');
    await readUntil(
      async () => receiver.received.length,
      () => receiver.received.some((r) => (r.json.recording as { status?: string }).status === 'ERRORED'),
      20_000,
      50,
    );
    await receiver.close();
    expect(receiver.received.map((r) => (r.json.recording as { status: string }).status)).toEqual(['INVOKED', 'RECORDING', 'ERRORED']);
    const stopped = await fetch(`${emu.url}/v2/recordings/${r.id}`, {
      method: 'PUT',
      headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'stop' }),
    });
    expect(stopped.status).toBe(409);
  });
});
