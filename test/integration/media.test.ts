// The media behind download_url, audio_download_url and playback_url: real bytes, the right
// types and lengths, signed links that expire on the emulator clock, HLS only while LIVE.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { livePlaylist, liveSegmentAt } from '../../src/domain/media/hls-playlist.js';
import { mediaFilesIn } from '../../src/domain/media/media-links.js';
import { BASIC, START, makeTestApp, type TestApp } from '../helpers/test-app.js';
import { createLivestream, createMeeting, getRecording, recordingAction, startRecording, type Resource } from '../helpers/builders.js';

const SECOND = 1_000;
const DAY = 86_400_000;
const VIDEO_BYTES = 29_944;
const AUDIO_BYTES = 11_529;

/** Collects any response body as raw bytes. */
function binary(res: request.Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

function get(t: TestApp, url: string) {
  const u = new URL(url);
  return t.api.get(`${u.pathname}${u.search}`).buffer(true).parse(binary);
}

async function uploadedRecording(t: TestApp) {
  const { id } = await startRecording(t.api, (await createMeeting(t.api, {})).id);
  t.advance(3 * SECOND + 60 * SECOND);
  await recordingAction(t.api, id, 'stop');
  t.advance(15 * SECOND);
  const uploaded = await getRecording(t.api, id);
  expect(uploaded.status).toBe('UPLOADED');
  return uploaded as Resource & {
    id: string;
    download_url: string;
    audio_download_url: string;
    download_url_expiry: string;
    file_size: number;
    output_file_name: string;
  };
}

/** Errors are JSON: parsed as usual, so the OpenAPI check sees the error shape. */
function getJson(t: TestApp, url: string) {
  const u = new URL(url);
  return t.api.get(`${u.pathname}${u.search}`);
}

function withQuery(url: string, change: (q: URLSearchParams) => void): string {
  const u = new URL(url);
  change(u.searchParams);
  return u.toString();
}

/**
 * A recording whose output file a state document renamed while it was recording (the state
 * document may name it freely), then uploaded: the recording as answered after the upload.
 */
async function uploadedAs(outputFileName: string) {
  const t = makeTestApp();
  const r = await startRecording(t.api, (await createMeeting(t.api, {})).id);
  t.advance(3 * SECOND + 60 * SECOND);
  const doc = (await t.api.get('/_emulator/state').expect(200)).body;
  const stored = doc.organizations
    .flatMap((o: { recordings: Array<{ id: string; outputFileName: string }> }) => o.recordings)
    .find((x: { id: string }) => x.id === r.id);
  stored.outputFileName = outputFileName;
  await t.api.put('/_emulator/state').send(doc).expect(200);
  await recordingAction(t.api, r.id, 'stop');
  t.advance(15 * SECOND);
  return { t, r, imported: await getRecording(t.api, r.id) };
}

describe('recording downloads', () => {
  it('download_url serves the MP4: video/mp4, content-length = file_size, an ftyp box at offset 4', async () => {
    const t = makeTestApp();
    const r = await uploadedRecording(t);
    expect(r.file_size).toBe(VIDEO_BYTES);
    const res = await get(t, r.download_url).expect(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['content-length']).toBe(String(r.file_size));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['content-disposition']).toBe(`inline; filename="${r.output_file_name}"`);
    const body = res.body as Buffer;
    expect(body.length).toBe(r.file_size);
    expect(body.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(body.subarray(8, 12).toString('latin1')).toBe('isom');
  });

  it('audio_download_url serves the M4A: audio/mp4, an ftyp box with the M4A brand', async () => {
    const t = makeTestApp();
    const r = await uploadedRecording(t);
    expect(r.audio_download_url.split('?')[0]).toBe(r.download_url.split('?')[0]!.replace(/\.mp4$/, '.m4a'));
    const res = await get(t, r.audio_download_url).expect(200);
    expect(res.headers['content-type']).toBe('audio/mp4');
    expect(res.headers['content-length']).toBe(String(AUDIO_BYTES));
    const body = res.body as Buffer;
    expect(body.length).toBe(AUDIO_BYTES);
    expect(body.subarray(4, 12).toString('latin1')).toBe('ftypM4A ');
  });

  it('the sample file is served from the bytes kept in memory, and from disk when reading them fails', async () => {
    const t = makeTestApp();
    const r = await uploadedRecording(t);
    const read = vi.spyOn(t.deps.media, 'read');
    const kept = await get(t, r.download_url).expect(200);
    expect(read).toHaveBeenCalledWith(t.deps.media.files.video.file);
    read.mockRejectedValueOnce(new Error('EIO'));
    const fromDisk = await get(t, r.download_url).expect(200);
    expect(read).toHaveBeenCalledTimes(2);
    for (const res of [kept, fromDisk]) {
      expect(res.headers['content-type']).toBe('video/mp4');
      expect(res.headers['content-length']).toBe(String(VIDEO_BYTES));
      expect(res.headers['content-disposition']).toBe(`inline; filename="${r.output_file_name}"`);
    }
    expect(Buffer.compare(kept.body as Buffer, fromDisk.body as Buffer)).toBe(0);
  });

  it('works until download_url_expiry on the emulator clock and answers 403 after it', async () => {
    const t = makeTestApp();
    const r = await uploadedRecording(t);
    const expiry = Date.parse(r.download_url_expiry);
    expect(expiry).toBe(START + 63 * SECOND + 7 * DAY);
    t.advance(expiry - t.now());
    await get(t, r.download_url).expect(200);
    await get(t, r.audio_download_url).expect(200);
    t.advance(1);
    for (const url of [r.download_url, r.audio_download_url]) {
      const res = await getJson(t, url).expect(403);
      expect(res.body).toEqual({ error: { code: 'LINK_EXPIRED', message: `This link expired at ${r.download_url_expiry}` } });
    }
  });

  it.each([
    ['a changed signature', (u: string) => withQuery(u, (q) => q.set('signature', `${q.get('signature')!.slice(0, -1)}A`))],
    ['a later expiry (signature no longer matches)', (u: string) => withQuery(u, (q) => q.set('expires', String(Number(q.get('expires')) + DAY)))],
    ['no signature', (u: string) => withQuery(u, (q) => q.delete('signature'))],
    ['no expiry', (u: string) => withQuery(u, (q) => q.delete('expires'))],
    ['a non-numeric expiry', (u: string) => withQuery(u, (q) => q.set('expires', 'soon'))],
    ['the same expiry written with a plus sign', (u: string) => withQuery(u, (q) => q.set('expires', `+${q.get('expires')}`))],
    ['the same expiry written with a decimal fraction', (u: string) => withQuery(u, (q) => q.set('expires', `${q.get('expires')}.0`))],
    ['a signature one character short', (u: string) => withQuery(u, (q) => q.set('signature', q.get('signature')!.slice(0, -1)))],
    ['another recording in the path', (u: string) => u.replace(/recordings\/[0-9a-f-]{36}/, 'recordings/00000000-0000-4000-8000-000000000bad')],
    ['another file name in the path', (u: string) => u.replace(/\/[^/]+\.mp4\?/, '/other.mp4?')],
    ['the video signature on the audio path', (u: string) => u.replace('.mp4?', '.m4a?')],
  ])('answers 403 INVALID_SIGNATURE for %s', async (_name, tamper) => {
    const t = makeTestApp();
    const r = await uploadedRecording(t);
    const res = await getJson(t, tamper(r.download_url)).expect(403);
    expect(res.body).toEqual({ error: { code: 'INVALID_SIGNATURE', message: 'The link signature is missing or does not match' } });
  });

  it.each([
    ['bytes=0-99', 206, 'bytes 0-99/29944', 0, 100],
    ['bytes=29900-', 206, 'bytes 29900-29943/29944', 29_900, 44],
    ['bytes=-10', 206, 'bytes 29934-29943/29944', 29_934, 10],
    ['bytes=100-999999', 206, 'bytes 100-29943/29944', 100, 29_844],
    ['bytes=0-0', 206, 'bytes 0-0/29944', 0, 1],
    ['bytes=0-1,5-9', 200, undefined, 0, VIDEO_BYTES], // several ranges: the whole file
    ['bytes=9-5', 200, undefined, 0, VIDEO_BYTES], // malformed: ignored
    ['items=0-5', 200, undefined, 0, VIDEO_BYTES], // another unit: ignored
    ['items=9-5', 200, undefined, 0, VIDEO_BYTES], // another unit, even one that reads as unsatisfiable bytes
    ['bytes=-50000', 206, 'bytes 0-29943/29944', 0, VIDEO_BYTES], // a suffix longer than the file: the whole file
    ['bytes=0-1,50000-60000', 200, undefined, 0, VIDEO_BYTES], // several ranges, one satisfiable: still the whole file
    ['bytes =0-99', 206, 'bytes 0-99/29944', 0, 100], // white space before the "=": still one range of bytes
    ['bytes = 0 - 99', 206, 'bytes 0-99/29944', 0, 100], // white space around the "=" and the "-" (docs/time-and-lifecycles.md)
    ['bytes=9 -5', 200, undefined, 0, VIDEO_BYTES], // last before first, with white space: still ignored
  ])('Range %s → %d', async (range, status, contentRange, start, length) => {
    const t = makeTestApp();
    const r = await uploadedRecording(t);
    const full = (await get(t, r.download_url).expect(200)).body as Buffer;
    const res = await get(t, r.download_url).set('Range', range).expect(status);
    expect(res.headers['content-range']).toBe(contentRange);
    expect(res.headers['content-length']).toBe(String(length));
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(Buffer.compare(res.body as Buffer, full.subarray(start, start + length))).toBe(0);
  });

  it.each(['bytes=29944-', 'bytes=50000-60000', 'bytes=-0'])('Range %s → 416 with the size', async (range) => {
    const t = makeTestApp();
    const r = await uploadedRecording(t);
    const res = await getJson(t, r.download_url).set('Range', range).expect(416);
    expect(res.headers['content-range']).toBe('bytes */29944');
    expect(res.body).toEqual({ error: { code: 'RANGE_NOT_SATISFIABLE', message: expect.stringContaining('29944 bytes') } });
  });

  it('audio_download_url turns only the final .mp4 of an output_file_name into .m4a (a state document may name it freely)', async () => {
    const { t, r, imported } = await uploadedAs('take.mp4.final.mp4');
    expect(imported.status).toBe('UPLOADED');
    expect(imported.output_file_name).toBe('take.mp4.final.mp4');
    expect(new URL(imported.download_url as string).pathname).toBe(`/media/recordings/${r.id}/take.mp4.final.mp4`);
    expect(new URL(imported.audio_download_url as string).pathname).toBe(`/media/recordings/${r.id}/take.mp4.final.m4a`);
    const audio = await get(t, imported.audio_download_url as string).expect(200);
    expect(audio.headers['content-type']).toBe('audio/mp4');
    expect(audio.headers['content-disposition']).toBe('inline; filename="take.mp4.final.m4a"');
    expect((audio.body as Buffer).length).toBe(AUDIO_BYTES);
  });

  it('a file name with quotes or a backslash (a state document may name it freely) is downloaded with each of them as "_"', async () => {
    const { t, imported } = await uploadedAs('say "hi" a\\b.mp4');
    expect(imported.output_file_name).toBe('say "hi" a\\b.mp4');
    const video = await get(t, imported.download_url as string).expect(200);
    expect(video.headers['content-disposition']).toBe('inline; filename="say _hi_ a_b.mp4"');
    const audio = await get(t, imported.audio_download_url as string).expect(200);
    expect(audio.headers['content-disposition']).toBe('inline; filename="say _hi_ a_b.m4a"');
  });

  it('answers 404 once the recording is gone (reset), even with a valid link', async () => {
    const t = makeTestApp();
    const r = await uploadedRecording(t);
    t.deps.reset();
    t.advance(SECOND);
    const res = await getJson(t, r.download_url).expect(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: `No recording found with id ${r.id}` } });
  });

  it('answers 400 for a recording id that is not a UUID', async () => {
    const t = makeTestApp();
    const res = await t.api.get('/media/recordings/nope/file.mp4?expires=1&signature=x').expect(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });
});

describe('livestream playback (HLS)', () => {
  async function liveStream(t: TestApp) {
    const meeting = await createMeeting(t.api, {});
    const l = await createLivestream(t.api, meeting.id);
    return { meetingId: meeting.id, id: l.id, playbackUrl: l.playback_url as string };
  }

  it('the playlist is 404 while OFFLINE, a live #EXTM3U while LIVE, and 404 again once stopped', async () => {
    const t = makeTestApp();
    const { meetingId, id, playbackUrl } = await liveStream(t);
    expect(playbackUrl).toBe(`http://emulator.test/media/livestreams/${id}/index.m3u8`);
    const offline = await getJson(t, playbackUrl).expect(404);
    expect(offline.body).toEqual({ error: { code: 'NOT_FOUND', message: `Livestream ${id} is not LIVE; its playlist exists only while it is` } });

    t.advance(5 * SECOND); // LIVE now
    const live = await get(t, playbackUrl).expect(200);
    expect(live.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(live.headers['cache-control']).toBe('no-cache');
    expect(live.headers['access-control-allow-origin']).toBe('*');
    expect((live.body as Buffer).toString()).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXT-X-DISCONTINUITY-SEQUENCE:0',
        '#EXTINF:2.000,',
        'segments/0.ts',
        '',
      ].join('\n'),
    );

    await t.api.post(`/v2/meetings/${meetingId}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    await getJson(t, playbackUrl).expect(404);
    await getJson(t, `http://emulator.test/media/livestreams/${id}/segments/0.ts`).expect(404);
  });

  it('the window slides with the clock and marks each loop of the sample segments with a discontinuity', async () => {
    const t = makeTestApp();
    const { playbackUrl } = await liveStream(t);
    t.advance(5 * SECOND);
    t.advance(9 * SECOND); // 9 s live: segments 0..4 exist, the window is 2..4
    const text = ((await get(t, playbackUrl).expect(200)).body as Buffer).toString();
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-MEDIA-SEQUENCE:2',
        '#EXT-X-DISCONTINUITY-SEQUENCE:0',
        '#EXTINF:2.000,',
        'segments/2.ts',
        '#EXT-X-DISCONTINUITY',
        '#EXTINF:2.000,',
        'segments/3.ts',
        '#EXTINF:2.000,',
        'segments/4.ts',
        '',
      ].join('\n'),
    );
    t.advance(4 * SECOND); // 13 s live: window 4..6, wrap before 6; one wrap (before 3) slid out
    const later = ((await get(t, playbackUrl).expect(200)).body as Buffer).toString();
    expect(later).toContain(
      '#EXT-X-MEDIA-SEQUENCE:4\n#EXT-X-DISCONTINUITY-SEQUENCE:1\n#EXTINF:2.000,\nsegments/4.ts\n#EXTINF:2.000,\nsegments/5.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:2.000,\nsegments/6.ts\n',
    );
  });

  it('serves listed segments as MPEG-TS (sync byte 0x47 every 188 bytes), looping the sample files', async () => {
    const t = makeTestApp();
    const { id, playbackUrl } = await liveStream(t);
    t.advance(5 * SECOND + 9 * SECOND);
    const text = ((await get(t, playbackUrl).expect(200)).body as Buffer).toString();
    const uris = text.split('\n').filter((l) => l.startsWith('segments/'));
    expect(uris).toEqual(['segments/2.ts', 'segments/3.ts', 'segments/4.ts']);
    const bodies: Buffer[] = [];
    for (const uri of uris) {
      const res = await get(t, `http://emulator.test/media/livestreams/${id}/${uri}`).expect(200);
      expect(res.headers['content-type']).toBe('video/mp2t');
      const body = res.body as Buffer;
      expect(body.length % 188).toBe(0);
      expect(res.headers['content-length']).toBe(String(body.length));
      for (let i = 0; i < body.length; i += 188) expect(body[i], `sync byte at ${i}`).toBe(0x47);
      bodies.push(body);
    }
    // Segment 3 is the first file again (segment0.ts, 14 852 bytes); 2 and 4 differ from it.
    const segment0 = await get(t, `http://emulator.test/media/livestreams/${id}/segments/0.ts`).expect(200);
    expect(segment0.headers['content-disposition']).toBe('inline; filename="0.ts"');
    const first = segment0.body as Buffer;
    expect(first.length).toBe(14_852);
    expect(Buffer.compare(bodies[1]!, first)).toBe(0);
    expect(Buffer.compare(bodies[0]!, first)).not.toBe(0);
  });

  it('a segment not produced yet is 404', async () => {
    const t = makeTestApp();
    const { id } = await liveStream(t);
    t.advance(5 * SECOND + 3 * SECOND); // 3 s live: segments 0 and 1
    await get(t, `http://emulator.test/media/livestreams/${id}/segments/1.ts`).expect(200);
    const res = await getJson(t, `http://emulator.test/media/livestreams/${id}/segments/2.ts`).expect(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: `Segment 2 of livestream ${id} does not exist yet` } });
  });

  it('without sample segments (a media folder with no hls/segments.json) a LIVE livestream has no segment to serve: 404', async () => {
    const t = makeTestApp();
    Object.assign(t.deps.media, { files: mediaFilesIn(mkdtempSync(path.join(os.tmpdir(), 'media-'))) });
    const { id } = await liveStream(t);
    t.advance(5 * SECOND + 9 * SECOND);
    const res = await getJson(t, `http://emulator.test/media/livestreams/${id}/segments/0.ts`).expect(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: `Segment 0 of livestream ${id} does not exist yet` } });
  });

  it('an empty sample segment is served as 0 bytes, and a suffix Range of it is 416 with content-range bytes */0', async () => {
    // RFC 9110 §14.1.3: a suffix range is satisfiable only if the representation has a non-zero length.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'media-'));
    mkdirSync(path.join(dir, 'hls'));
    writeFileSync(path.join(dir, 'hls', 'segments.json'), JSON.stringify([{ file: 'empty.ts', duration: 2 }]));
    writeFileSync(path.join(dir, 'hls', 'empty.ts'), '');
    const t = makeTestApp();
    Object.assign(t.deps.media, { files: mediaFilesIn(dir) });
    const { id } = await liveStream(t);
    t.advance(5 * SECOND);
    const url = `http://emulator.test/media/livestreams/${id}/segments/0.ts`;
    const whole = await get(t, url).expect(200);
    expect(whole.headers['content-length']).toBe('0');
    const res = await getJson(t, url).set('Range', 'bytes=-500').expect(416);
    expect(res.headers['content-range']).toBe('bytes */0');
    expect(res.body).toEqual({ error: { code: 'RANGE_NOT_SATISFIABLE', message: expect.stringContaining('0 bytes') } });
  });

  it.each([
    ['an unknown livestream', '/media/livestreams/00000000-0000-4000-8000-00000000beef/index.m3u8', 404],
    ['a livestream id that is not a UUID', '/media/livestreams/live/index.m3u8', 400],
    ['a segment number that is not a number', '/media/livestreams/00000000-0000-4000-8000-00000000beef/segments/abc.ts', 400],
  ])('answers %s with %d', async (_name, path, status) => {
    const t = makeTestApp();
    const res = await t.api.get(path).expect(status);
    expect(res.body).toEqual({ error: { code: status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', message: expect.any(String) } });
  });
});

describe('live playlist arithmetic (uneven sample segments)', () => {
  // The bundled segments are all 2 s; the window logic must not depend on that.
  const segments = [{ durationMs: 2_000 }, { durationMs: 3_000 }, { durationMs: 1_500 }]; // a 6.5 s loop

  it.each([
    [0, 0],
    [1_999, 0],
    [2_000, 1],
    [4_999, 1],
    [5_000, 2],
    [6_499, 2],
    [6_500, 3],
    [8_500, 4],
    [13_000, 6],
    [65_000 + 5_000, 32], // ten loops (30 segments) + 5 s into the next
  ])('at %d ms live the newest segment is %d', (liveMs, seq) => {
    expect(liveSegmentAt(segments, liveMs)).toBe(seq);
  });

  it('without sample segments (a media folder with no hls/segments.json) the playlist lists none and stays at sequence 0', () => {
    const none = mediaFilesIn(mkdtempSync(path.join(os.tmpdir(), 'media-'))).hls;
    expect(none).toEqual([]);
    expect(liveSegmentAt(none, 9_000)).toBe(0);
    expect(livePlaylist(none, 9_000)).toBe(
      ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-DISCONTINUITY-SEQUENCE:0', ''].join('\n'),
    );
  });

  it('sample segments of no length (durations 0) keep the playlist on segment 0', () => {
    const empty = [{ durationMs: 0 }, { durationMs: 0 }];
    expect(liveSegmentAt(empty, 9_000)).toBe(0);
    expect(livePlaylist(empty, 9_000)).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:1',
        '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXT-X-DISCONTINUITY-SEQUENCE:0',
        '#EXTINF:0.000,',
        'segments/0.ts',
        '',
      ].join('\n'),
    );
  });

  it('lists each segment with its own duration and the target duration rounded up', () => {
    expect(livePlaylist(segments, 8_500)).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:3',
        '#EXT-X-MEDIA-SEQUENCE:2',
        '#EXT-X-DISCONTINUITY-SEQUENCE:0',
        '#EXTINF:1.500,',
        'segments/2.ts',
        '#EXT-X-DISCONTINUITY',
        '#EXTINF:2.000,',
        'segments/3.ts',
        '#EXTINF:3.000,',
        'segments/4.ts',
        '',
      ].join('\n'),
    );
  });
});
