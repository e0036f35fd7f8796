// The media the emulator hands out links to: recording downloads (signed, expiring links on
// the emulator's clock) and the HLS playback of LIVE livestreams. Small real files from
// fixtures/media, so a browser <video> (or hls.js) actually plays them.
//
// The handlers write the bytes themselves and return undefined (see route.ts). Errors are
// ApiErrors like everywhere else; the error renderer gives /media the control shape. The CORS
// headers a player on another origin (hls.js, fetch) needs are on every answer (cors.ts).
import type { Request, Response } from 'express';
import { z } from 'zod';
import { toIso } from '../../core/clock.js';
import { errors } from '../../core/errors.js';
import type { Deps } from '../../container.js';
import { livePlaylist, liveSegmentAt, segmentIndexOf } from '../../domain/media/hls-playlist.js';
import { liveMsAt } from '../../domain/livestreams/livestream-machine.js';
import type { Livestream } from '../../domain/models.js';
import { route } from '../route.js';
import { byteRange } from './range.js';

const TAG = 'Media';

export const signedQuery = z.object({
  expires: z.string().max(32).optional().meta({ description: 'Expiry, epoch ms (part of the signed link)' }),
  signature: z.string().max(256).optional().meta({ description: 'HMAC of the path and expiry (part of the signed link)' }),
});

const recordingFileParams = z.object({ recording_id: z.uuid(), file: z.string().min(1).max(512) });

const signedLinkErrors = {
  403: { description: 'The link expired (download_url_expiry, emulator clock) or its signature is missing or wrong' },
  404: { description: 'The recording no longer exists' },
  416: { description: 'The Range starts past the end of the file' },
};

/** Sends a whole file or the one byte range asked for. */
async function sendFile(req: Request, res: Response, content: Promise<Buffer>, contentType: string, downloadName: string): Promise<undefined> {
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
    path: '/media/recordings/{recording_id}/{file}.mp4',
    api: 'media',
    auth: 'none',
    tag: TAG,
    summary: "A recording's video (the download_url): MP4, H.264 + AAC; supports Range",
    description: "The link is signed and expires at download_url_expiry on the emulator clock. content-length equals the recording's file_size.",
    params: recordingFileParams,
    query: signedQuery,
    responses: {
      200: { description: 'The whole file', contentType: 'video/mp4' },
      206: { description: 'The requested byte range', contentType: 'video/mp4' },
      ...signedLinkErrors,
    },
    handler: async ({ deps, params, query, req, res }) => {
      const { media } = deps;
      checkLink(deps, media.recordingVideoPath(params.recording_id, `${params.file}.mp4`), query);
      deps.services.recordings.locate(params.recording_id);
      return sendFile(req, res, media.read(media.files.video.file), media.files.video.contentType, `${params.file}.mp4`);
    },
  }),
  route({
    method: 'get',
    path: '/media/recordings/{recording_id}/{file}.m4a',
    api: 'media',
    auth: 'none',
    tag: TAG,
    summary: "A recording's audio (the audio_download_url): M4A, AAC; supports Range",
    description: 'The link is signed and expires at download_url_expiry on the emulator clock.',
    params: recordingFileParams,
    query: signedQuery,
    responses: {
      200: { description: 'The whole file', contentType: 'audio/mp4' },
      206: { description: 'The requested byte range', contentType: 'audio/mp4' },
      ...signedLinkErrors,
    },
    handler: async ({ deps, params, query, req, res }) => {
      const { media } = deps;
      // recordingAudioPath derives the .m4a name from the recording's .mp4 output file name.
      checkLink(deps, media.recordingAudioPath(params.recording_id, `${params.file}.mp4`), query);
      deps.services.recordings.locate(params.recording_id);
      return sendFile(req, res, media.read(media.files.audio.file), media.files.audio.contentType, `${params.file}.m4a`);
    },
  }),
  route({
    method: 'get',
    path: '/media/livestreams/{livestream_id}/index.m3u8',
    api: 'media',
    auth: 'none',
    tag: TAG,
    summary: "A livestream's HLS playlist (the playback_url): a live sliding window, only while LIVE",
    params: z.object({ livestream_id: z.uuid() }),
    responses: {
      200: { description: 'A live media playlist (#EXTM3U) of real MPEG-TS segments', contentType: 'application/vnd.apple.mpegurl' },
      404: { description: 'Unknown livestream, or one that is not LIVE' },
    },
    handler: ({ deps, params, res }) => {
      const l = liveStream(deps, params.livestream_id);
      const body = livePlaylist(deps.media.files.hls, liveMsAt(l, deps.clock.now()));
      res.status(200);
      res.setHeader('content-type', 'application/vnd.apple.mpegurl');
      res.setHeader('cache-control', 'no-cache');
      res.setHeader('content-length', String(Buffer.byteLength(body)));
      res.end(body);
      return undefined;
    },
  }),
  route({
    method: 'get',
    path: '/media/livestreams/{livestream_id}/segments/{seq}.ts',
    api: 'media',
    auth: 'none',
    tag: TAG,
    summary: 'One MPEG-TS segment of a LIVE livestream (listed in its playlist)',
    params: z.object({ livestream_id: z.uuid(), seq: z.string().regex(/^\d{1,9}$/, 'must be a media sequence number') }),
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
      if (hls.length === 0 || seq > liveSegmentAt(hls, liveMsAt(l, deps.clock.now()))) {
        throw errors.notFoundMessage(`Segment ${seq} of livestream ${l.id} does not exist yet`);
      }
      return sendFile(req, res, deps.media.read(hls[segmentIndexOf(hls, seq)]!.file), 'video/mp2t', `${seq}.ts`);
    },
  }),
];
