// The media the emulator hands out links to: recording downloads (signed, expiring links on
// the emulator's clock) and the HLS playback of LIVE livestreams. Small real files from
// fixtures/media, so a browser <video> (or hls.js) actually plays them.
//
// The handlers write the bytes themselves and return undefined (see route.ts). Errors are
// ApiErrors like everywhere else; the error renderer gives /media the control shape. The CORS
// headers a player on another origin (hls.js, fetch) needs are on every answer (cors.ts).
import type { Request, Response } from 'express';
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { toIso } from '../../core/clock.js';
import { errors } from '../../core/errors.js';
import type { Deps } from '../../container.js';
import { livePlaylist, liveSegmentAt, segmentIndexOf } from '../../domain/media/hls-playlist.js';
import { liveMsAt } from '../../domain/livestreams/livestream-machine.js';
import type { Livestream } from '../../domain/models.js';
import { route } from '../route.js';
import { byteRange } from './range.js';
import { open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { RecordingEvicted } from '../../domain/recordings/recording-files.js';
import { FORMATS } from '../../domain/recordings/recording-formats.js';

const TAG = 'Media';

export const signedQuery = lazy(() =>
  z.object({
    expires: z.string().max(32).optional().meta({ description: 'Expiry, epoch ms (part of the signed link)' }),
    signature: z.string().max(256).optional().meta({ description: 'HMAC of the path and expiry (part of the signed link)' }),
  }),
);

const RECORDING_CONTENT_TYPES = Object.values(FORMATS)
  .map((f) => f.contentType)
  .filter((t) => t !== 'video/mp4');

/** Sends a file on disk, whole or the one byte range asked for, as a stream (a recording may be large). */
async function sendFromDisk(req: Request, res: Response, file: string, size: number, contentType: string, downloadName: string): Promise<undefined> {
  const range = byteRange(req, size);
  if (range.kind === 'unsatisfiable') throw errors.rangeNotSatisfiable(size);
  const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, size - 1];
  // Opened before the status is sent, so that a file gone meanwhile is still a clean error.
  const handle = await open(file, 'r').catch(() => {
    throw errors.notFoundMessage(`The file ${downloadName} is no longer on disk`);
  });
  res.status(range.kind === 'partial' ? 206 : 200);
  res.setHeader('content-type', contentType);
  res.setHeader('accept-ranges', 'bytes');
  res.setHeader('content-disposition', `inline; filename="${downloadName.replace(/["\\\r\n]/g, '_')}"`);
  if (range.kind === 'partial') res.setHeader('content-range', `bytes ${start}-${end}/${size}`);
  res.setHeader('content-length', String(size === 0 ? 0 : end - start + 1));
  if (size === 0) {
    await handle.close();
    res.end();
    return undefined;
  }
  const stream = handle.createReadStream({ start, end });
  await pipeline(stream, res).catch(() => undefined);
  return undefined;
}

/** Sends a whole file or the one byte range asked for. */
async function sendFile(req: Request, res: Response, content: Buffer | Promise<Buffer>, contentType: string, downloadName: string): Promise<undefined> {
  const bytes = await content;
  const range = byteRange(req, bytes.length);
  if (range.kind === 'unsatisfiable') throw errors.rangeNotSatisfiable(bytes.length);
  res.setHeader('content-type', contentType);
  res.setHeader('accept-ranges', 'bytes');
  res.setHeader('content-disposition', `inline; filename="${downloadName.replace(/["\\\r\n]/g, '_')}"`);
  if (range.kind === 'partial') {
    res.status(206);
    res.setHeader('content-range', `bytes ${range.start}-${range.end}/${bytes.length}`);
    res.setHeader('content-length', String(range.end - range.start + 1));
    res.end(bytes.subarray(range.start, range.end + 1));
  } else {
    res.status(200);
    res.setHeader('content-length', String(bytes.length));
    res.end(bytes);
  }
  return undefined;
}

function sendPlaylist(res: Response, body: string): undefined {
  return sendFresh(res, 'application/vnd.apple.mpegurl', body);
}

/** A text made on each request (a playlist, a live transcript): never cached, its length said. */
export function sendFresh(res: Response, contentType: string, body: string): undefined {
  res.status(200);
  res.setHeader('content-type', contentType);
  res.setHeader('cache-control', 'no-cache');
  res.setHeader('content-length', String(Buffer.byteLength(body)));
  res.end(body);
  return undefined;
}

export function checkLink(deps: Deps, pathname: string, query: { expires?: string; signature?: string }): void {
  const verdict = deps.media.check(pathname, query.expires, query.signature, deps.clock.now());
  if (verdict === 'invalid') throw errors.mediaSignatureInvalid();
  if (verdict === 'expired') throw errors.mediaLinkExpired(toIso(Number(query.expires)));
}

function liveStream(deps: Deps, id: string): Livestream {
  const l = deps.services.livestreams.locate(id);
  if (l.state !== 'LIVE') throw errors.notFoundMessage(`Livestream ${id} is not LIVE; its playlist exists only while it is`);
  return l;
}

export const mediaRoutes = [
  route({
    method: 'get',
    path: '/media/recordings/{recording_id}/{file}',
    api: 'media',
    auth: 'none',
    tag: TAG,
    summary: "A recording's file (its download_url or audio_download_url); supports Range",
    description:
      "The link is signed and expires at download_url_expiry on the emulator clock. The file is what the recording made: MP4 (H.264 + AAC or MP3), WebM (VP8 + Vorbis; a track recording's tracks as sent), or its separate audio file (M4A, MP3, Ogg Vorbis); the sample MP4 and M4A without a recorder. content-length of the download_url's file equals the recording's file_size.",
    params: () => z.object({ recording_id: z.uuid(), file: z.string().min(1).max(512) }),
    query: signedQuery,
    responses: {
      200: { description: 'The whole file', contentType: 'video/mp4', alsoAs: RECORDING_CONTENT_TYPES },
      206: { description: 'The requested byte range', contentType: 'video/mp4', alsoAs: RECORDING_CONTENT_TYPES },
      403: { description: 'The link expired (download_url_expiry, emulator clock) or its signature is missing or wrong' },
      404: { description: 'The recording no longer exists, or has no file of that name' },
      410: { description: "The recording's files were removed to stay within the emulator's recording disk limit" },
      416: { description: 'The Range starts past the end of the file' },
    },
    handler: async ({ deps, params, query, req, res }) => {
      const { media } = deps;
      checkLink(deps, media.recordingFilePath(params.recording_id, params.file), query);
      const recording = deps.services.recordings.locate(params.recording_id);
      let file;
      try {
        file = deps.services.recordings.files.fileFor(recording, params.file);
      } catch (err) {
        if (err instanceof RecordingEvicted) throw errors.mediaGone(err.message);
        throw err;
      }
      if (!file) throw errors.notFoundMessage(`Recording ${recording.id} has no file ${params.file}`);
      // A recording made without a recorder is the sample file: its bytes are read once and kept
      // (as the livestream's sample segments are), so a download costs no disk access. Should the
      // read fail, the disk path below answers as for any file gone.
      // Stryker disable next-line ConditionalExpression,EqualityOperator: memory or disk, the answer is the same bytes; only the disk access differs
      if (file.path === media.files.video.file || file.path === media.files.audio.file) {
        const bytes = await media.read(file.path).catch(() => undefined);
        // Stryker disable next-line ConditionalExpression: the disk path answers the same bytes
        if (bytes) return sendFile(req, res, bytes, file.contentType, file.name);
      }
      return sendFromDisk(req, res, file.path, file.bytes, file.contentType, file.name);
    },
  }),
  route({
    method: 'get',
    path: '/media/livestreams/{livestream_id}/index.m3u8',
    api: 'media',
    auth: 'none',
    tag: TAG,
    summary: "A livestream's HLS playlist (the playback_url): a live sliding window, only while LIVE",
    description:
      "With real media (--livestreams real) a multivariant playlist naming the live playlist with a viewer token, as production's playback URLs do (the viewers counted are the tokens that fetched it within the last 10 s); simulated, the live media playlist of the sample segments (viewers counted by address and user agent).",
    params: () => z.object({ livestream_id: z.uuid() }),
    responses: {
      200: { description: 'A multivariant or live media playlist (#EXTM3U) of real MPEG-TS segments', contentType: 'application/vnd.apple.mpegurl' },
      404: { description: 'Unknown livestream, or one that is not LIVE' },
    },
    handler: ({ deps, params, req, res }) => {
      const l = liveStream(deps, params.livestream_id);
      if (deps.livestreamMedia.real) {
        const viewer = deps.ids.token(16);
        return sendPlaylist(
          res,
          ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS', `#EXT-X-STREAM-INF:BANDWIDTH=2628000`, `live.m3u8?viewer=${viewer}`, ''].join('\n'),
        );
      }
      deps.services.livestreams.watched(l, `${req.socket.remoteAddress ?? ''} ${req.headers['user-agent'] ?? ''}`);
      return sendPlaylist(res, livePlaylist(deps.media.files.hls, liveMsAt(l, deps.clock.now())));
    },
  }),
  route({
    method: 'get',
    path: '/media/livestreams/{livestream_id}/live.m3u8',
    api: 'media',
    auth: 'none',
    tag: TAG,
    summary: "A LIVE livestream's live media playlist (real media): the sliding window of its latest segments",
    description: 'The multivariant playlist at the playback_url names it with a viewer token; each token that fetches it counts as a viewer for 10 s.',
    params: () => z.object({ livestream_id: z.uuid() }),
    query: () =>
      z.object({
        viewer: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be the token the playback URL gave')
          .optional(),
      }),
    responses: {
      200: { description: 'A live media playlist (#EXTM3U) of MPEG-TS segments', contentType: 'application/vnd.apple.mpegurl' },
      404: { description: 'Unknown livestream, one that is not LIVE, or whose first segment is not made yet' },
    },
    handler: ({ deps, params, query, res }) => {
      const l = liveStream(deps, params.livestream_id);
      const body = deps.livestreamMedia.real ? deps.signalling.livestreamPlayback(l.id)?.playlist() : undefined;
      if (body === undefined) throw errors.notFoundMessage(`Livestream ${l.id} has no segment yet`);
      if (query.viewer !== undefined) deps.services.livestreams.watched(l, query.viewer);
      return sendPlaylist(res, body);
    },
  }),
  route({
    method: 'get',
    path: '/media/livestreams/{livestream_id}/segments/{seq}.ts',
    api: 'media',
    auth: 'none',
    tag: TAG,
    summary: 'One MPEG-TS segment of a LIVE livestream (listed in its playlist)',
    params: () => z.object({ livestream_id: z.uuid(), seq: z.string().regex(/^\d{1,9}$/, 'must be a media sequence number') }),
    responses: {
      200: { description: 'The segment (MPEG-TS, H.264 + AAC, 2 s)', contentType: 'video/mp2t' },
      206: { description: 'The requested byte range', contentType: 'video/mp2t' },
      404: { description: 'Unknown livestream, one that is not LIVE, or a segment not produced yet' },
      416: { description: 'The Range starts past the end of the segment' },
    },
    handler: async ({ deps, params, req, res }) => {
      const l = liveStream(deps, params.livestream_id);
      const { hls } = deps.media.files;
      const seq = Number(params.seq);
      if (deps.livestreamMedia.real) {
        const file = deps.signalling.livestreamPlayback(l.id)?.segment(seq);
        if (!file) throw errors.notFoundMessage(`Segment ${seq} of livestream ${l.id} does not exist (yet, or any longer)`);
        const size = await stat(file).then(
          (st) => st.size,
          () => -1,
        );
        if (size < 0) throw errors.notFoundMessage(`Segment ${seq} of livestream ${l.id} does not exist (yet, or any longer)`);
        return sendFromDisk(req, res, file, size, 'video/mp2t', `${seq}.ts`);
      }
      if (hls.length === 0 || seq > liveSegmentAt(hls, liveMsAt(l, deps.clock.now()))) {
        throw errors.notFoundMessage(`Segment ${seq} of livestream ${l.id} does not exist yet`);
      }
      return sendFile(req, res, deps.media.read(hls[segmentIndexOf(hls, seq)]!.file), 'video/mp2t', `${seq}.ts`);
    },
  }),
];
