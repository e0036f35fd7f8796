// What a recording holds, decoded as a user's tools would (ffprobe, a picture, the loudness): the
// meeting as the kits lay it out, tile by tile, as it changed while it was recorded; the formats
// production documents; its length equal to recording_duration under the manual clock, a pause
// left out; its files freed by a reset. A media test: the emulator in this process, its media
// plane and encoders in theirs, scripted participants publishing the sample clip.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { loudness, probe, withFfmpeg } from '../../helpers/media-probe.js';
import { SYSTEM_CALLER } from '../../../src/domain/recordings/recordings.service.js';
import { layoutTiles } from '../../../src/realtime/media/plane/recorder/layout.js';
import { readUntil } from '../../helpers/web-sdk.js';
import { RecorderWorld, showsClip, showsNameTile, type Box, type RecorderTile, type RecordingDto } from '../../helpers/recorder.js';

let emu: RunningEmulator;
let w: RecorderWorld;

beforeAll(async () => {
  // The tests that drop a recording wait for the plane's process to end once it holds nothing. An
  // idle time of 1 s (the default is 10 s of real time) still keeps it for a recorder whose start
  // was on its way, which takes milliseconds, so a recorder made after all still holds it.
  emu = await startEmulator({ seed: 'recorder', mediaPlaneIdleMs: 1_000 });
  w = new RecorderWorld(emu);
});
afterAll(async () => {
  await emu?.close();
  w?.close();
});

// The kits' grid in a 1280 × 720 picture (8 px apart and around): two tiles side by side, three as
// two above one, each 16:9.
const TWO: Box[] = [
  { x: 8, y: 184, w: 628, h: 352 },
  { x: 644, y: 184, w: 628, h: 352 },
];
const THREE: Box[] = [
  { x: 18, y: 8, w: 618, h: 348 },
  { x: 644, y: 8, w: 618, h: 348 },
  { x: 330, y: 364, w: 618, h: 348 },
];

describe.runIf(withFfmpeg)('a composite recording holds the meeting', () => {
  it('shows who joined, who left and whose camera and microphone were on, span by span of the manual clock, with their voices', async () => {
    const meetingId = await w.meeting();
    const ada = await w.bot(meetingId, 'Ada', { audio: true, video: true });
    const bob = await w.bot(meetingId, 'Bob', { video: true });
    const r = await w.record({ meeting_id: meetingId });
    await w.camerasDecoded(r.id, ['Ada', 'Bob']);
    // A second of Ada's voice reaches the recorder before the clock jumps (the clip's tone sounds 0.6 s
    // of every second): on a busy machine her sound's decoder may start after her camera's.
    await w.recorderUntil(r.id, (tiles) => (tiles.find((t) => t.name === 'Ada')?.microphone?.decoded ?? 0) >= 48_000);
    await emu.advance(10_000); // 0–10 s: Ada and Bob on camera

    // Bob turns his camera off and his microphone on.
    await w.botMedia(meetingId, bob, { video: false, audio: true });
    await w.bot(meetingId, 'Carl');
    await w.recorderUntil(
      r.id,
      (tiles) =>
        tiles.length === 3 && tiles.find((t) => t.name === 'Bob')?.camera === null && (tiles.find((t) => t.name === 'Bob')?.microphone?.decoded ?? 0) >= 48_000,
    );
    await emu.advance(10_000); // 10–20 s: Ada on camera, Bob and Carl by name; Ada's and Bob's voices

    await w.leave(meetingId, ada);
    const bobsVoice = (tiles: RecorderTile[]) => tiles.find((t) => t.name === 'Bob')?.microphone?.decoded ?? 0;
    let heard = 0;
    await w.recorderUntil(r.id, (tiles) => {
      heard = bobsVoice(tiles);
      return tiles.length === 2 && !tiles.some((t) => t.name === 'Ada');
    });
    // A second of Bob's voice alone reaches the recorder before the clock jumps: what it hears in real
    // time between two jumps opens the span after the second one (a jumped span's sound is silence).
    await w.recorderUntil(r.id, (tiles) => bobsVoice(tiles) >= heard + 48_000);
    await emu.advance(10_000); // 20–30 s: Bob and Carl by name; Bob's voice

    await w.botMedia(meetingId, bob, { audio: false });
    await w.recorderUntil(r.id, (tiles) => tiles.find((t) => t.name === 'Bob')?.microphone === null);
    await emu.advance(10_000); // 30–40 s: Bob and Carl by name, silent

    const done = await w.stopAndUpload(r.id);
    expect(done.status).toBe('UPLOADED');
    expect(done.recording_duration).toBe(40);
    // While UPLOADING, file_size was what the encoder had written to disk at the stop (the manual
    // clock leaves it little time); now, the whole file's.
    expect(w.lastStopped!.file_size).toBeGreaterThanOrEqual(0);
    expect(w.lastStopped!.file_size).toBeLessThan(done.file_size!);
    const video = await w.download(done.download_url!);
    expect(video).toMatchObject({ status: 200, contentType: 'video/mp4', contentLength: done.file_size, bytes: done.file_size });

    const p = probe(video.file);
    expect(p.format.format_name).toContain('mp4');
    expect(p.streams.map((s) => [s.codec_type, s.codec_name, s.width ?? s.channels])).toEqual([
      ['video', 'h264', 1280],
      ['audio', 'aac', 2],
    ]);
    expect(p.streams[0]!.height).toBe(720);
    expect(Math.abs(Number(p.format.duration) - 40)).toBeLessThanOrEqual(1);

    expect(showsClip(video.file, 5, TWO[0]!)).toBe(true);
    expect(showsClip(video.file, 5, TWO[1]!)).toBe(true);
    expect(showsClip(video.file, 15, THREE[0]!)).toBe(true);
    expect(showsNameTile(video.file, 15, THREE[1]!)).toBe(true);
    expect(showsNameTile(video.file, 15, THREE[2]!)).toBe(true);
    expect(showsNameTile(video.file, 25, TWO[0]!)).toBe(true);
    expect(showsNameTile(video.file, 25, TWO[1]!)).toBe(true);
    expect(showsNameTile(video.file, 35, TWO[1]!)).toBe(true);

    // The voices (the clip's tone): Ada's while she was there; Bob's, mixed in from when he turned his
    // microphone on, alone once she had left; nothing once he turned it off. The audio file is the same sound.
    expect(loudness(video.file, 0, 20).maxDb).toBeGreaterThan(-30);
    expect(loudness(video.file, 20, 23).maxDb, "Bob's voice after Ada left").toBeGreaterThan(-30);
    // The span's first second may still hold what Bob said between the jump and turning his microphone off.
    expect(loudness(video.file, 32, 40).maxDb, 'after Bob turned his microphone off').toBeLessThan(-80);
    const audio = await w.download(done.audio_download_url!);
    expect(audio.contentType).toBe('audio/mp4');
    expect(probe(audio.file).streams.map((s) => s.codec_name)).toEqual(['aac']);
    expect(Math.abs(Number(probe(audio.file).format.duration) - 40)).toBeLessThanOrEqual(1);
  });

  it('leaves a pause out: the recorder takes no track while paused, and the file is the recorded time only', async () => {
    const meetingId = await w.meeting();
    await w.bot(meetingId, 'Ada', { audio: true, video: true });
    const r = await w.record({ meeting_id: meetingId });
    await w.camerasDecoded(r.id, ['Ada']);
    await emu.advance(8_000);
    await w.rest('PUT', `/v2/recordings/${r.id}`, { action: 'pause' });
    // Paused, the recorder takes nothing: its decoders of Ada's camera and voice are closed.
    const taking = (tiles: RecorderTile[]) => [tiles[0]?.camera?.decoded, tiles[0]?.microphone?.decoded];
    expect(taking(await w.recorderUntil(r.id, (tiles) => taking(tiles).every((n) => n === 0)))).toEqual([0, 0]);
    await emu.advance(60_000);
    expect(taking(await w.recorderUntil(r.id, () => true))).toEqual([0, 0]);
    await w.rest('PUT', `/v2/recordings/${r.id}`, { action: 'resume' });
    // Resumed, it takes them again.
    await w.recorderUntil(r.id, (tiles) => taking(tiles).every((n) => (n ?? 0) > 0));
    await emu.advance(7_000);
    const done = await w.stopAndUpload(r.id);
    expect(done.recording_duration).toBe(15);
    const video = await w.download(done.download_url!);
    expect(Math.abs(Number(probe(video.file).format.duration) - 15)).toBeLessThanOrEqual(1);
  });

  it('a meeting nobody publishes in is a valid file of its length with a tile per name', async () => {
    const meetingId = await w.meeting();
    await w.bot(meetingId, 'Ada');
    await w.bot(meetingId, 'Bob');
    const r = await w.record({ meeting_id: meetingId });
    await w.recorderUntil(r.id, (tiles) => tiles.length === 2);
    await emu.advance(20_000);
    const done = await w.stopAndUpload(r.id);
    expect(done.status).toBe('UPLOADED');
    const video = await w.download(done.download_url!);
    expect(Math.abs(Number(probe(video.file).format.duration) - 20)).toBeLessThanOrEqual(1);
    expect(showsNameTile(video.file, 10, TWO[0]!)).toBe(true);
    expect(showsNameTile(video.file, 10, TWO[1]!)).toBe(true);
    // Nobody spoke: digital silence.
    expect(loudness(video.file).maxDb).toBeLessThan(-80);
  });

  it('stopped before its recorder is up (the whole minute in one go on the manual clock): UPLOADED, the file as long as recording_duration', async () => {
    const meetingId = await w.meeting('At once');
    await w.bot(meetingId, 'Ada');
    const started = await w.rest<RecordingDto>('POST', '/v2/recordings', { meeting_id: meetingId });
    // The recorder joins, a minute passes and the recording stops, in one step of this process: the
    // recorder's start (a folder made, the plane asked) has not run a step when the stop comes.
    const { deps } = emu;
    deps.scheduler.advanceTo(deps.clock.now() + 3_000);
    deps.scheduler.advanceTo(deps.clock.now() + 60_000);
    expect(deps.services.recordings.act(emu.orgId, started.id, 'stop', SYSTEM_CALLER).status).toBe('UPLOADING');
    await emu.advance(10 * 60_000);
    const done = await w.recording(started.id);
    expect(done.status, JSON.stringify(done)).toBe('UPLOADED');
    expect(done.recording_duration).toBe(60);
    const video = await w.download(done.download_url!);
    expect(Math.abs(Number(probe(video.file).format.duration) - 60)).toBeLessThanOrEqual(1);
    // One tile, the grid's whole picture: Ada's name, her camera off.
    expect(showsNameTile(video.file, 30, layoutTiles(1280, 720, { people: ['ada'], screens: [], pinned: [] }).get('ada')!)).toBe(true);
  });

  it('stops by itself at max_seconds, the file as long as that', async () => {
    const meetingId = await w.meeting();
    await w.bot(meetingId, 'Ada', { video: true });
    const r = await w.record({ meeting_id: meetingId, max_seconds: 60 });
    await w.camerasDecoded(r.id, ['Ada']);
    // Stopped at 60 s, uploaded 15 s later: the advance answers once it is.
    await emu.advance(90_000);
    const done = await w.recording(r.id);
    expect(done.status).toBe('UPLOADED');
    expect(done.recording_duration).toBe(60);
    const video = await w.download(done.download_url!);
    expect(Math.abs(Number(probe(video.file).format.duration) - 60)).toBeLessThanOrEqual(1);
  });
  // Last in the file: each resets what the tests before it made.
  it.each(['a reset of the emulator', "a reset of the recording's organization"])(
    "a finished recording's files are freed by %s: the health check's disk_bytes falls to 0 and its folder goes",
    async (how) => {
      const meetingId = await w.meeting('Freed');
      await w.bot(meetingId, 'Ada');
      const r = await w.record({ meeting_id: meetingId });
      await w.recorderUntil(r.id, (tiles) => tiles.length === 1);
      await emu.advance(5_000);
      const done = await w.stopAndUpload(r.id);
      expect(done.status).toBe('UPLOADED');
      const disk = async () => (await w.health()).recordings.disk_bytes;
      expect(await disk()).toBeGreaterThanOrEqual(done.file_size!);
      const artifacts = await emu.deps.services.recordings.files.whenComplete({ id: r.id, outputFileName: done.output_file_name });
      const folder = path.dirname(artifacts.video!.path);
      expect(existsSync(folder)).toBe(true);
      if (how.includes('emulator')) await emu.reset();
      else expect((await fetch(`${emu.url}/_emulator/orgs/${emu.orgId}/reset`, { method: 'POST' })).status).toBe(200);
      expect(await disk()).toBe(0);
      expect(
        await readUntil(
          async () => existsSync(folder),
          (there) => !there,
          30_000,
        ),
      ).toBe(false);
    },
  );
  it.each(['a reset of the emulator', "a reset of the recording's organization"])(
    'dropped by %s before its recorder is up: no recorder is made, and the media plane, holding nothing, ends',
    async (how) => {
      const meetingId = await w.meeting('Dropped at once');
      await w.bot(meetingId, 'Ada');
      await w.rest<RecordingDto>('POST', '/v2/recordings', { meeting_id: meetingId });
      // The recorder's start begins (a folder made, then the plane asked); the reset comes before it has run a step.
      const { deps } = emu;
      deps.scheduler.advanceTo(deps.clock.now() + 3_000);
      if (how.includes('emulator')) await emu.reset();
      else expect((await fetch(`${emu.url}/_emulator/orgs/${emu.orgId}/reset`, { method: 'POST' })).status).toBe(200);
      // A recorder made after all would hold the plane's process for good.
      const plane = async () => (await w.health()).media.plane_pid;
      expect(await readUntil(plane, (pid) => pid === null, 30_000)).toBeNull();
      expect(deps.services.recordings.files.recording).toBe(0);
    },
  );
});
