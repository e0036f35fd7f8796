import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { clockView } from '../../core/clock.js';
import { VERSION } from '../../core/package-info.js';
import type { Deps } from '../../container.js';
import { route, type JsonText } from '../route.js';
import { mediaNetworkOf, plannedListening, type MediaListening } from '../../realtime/media/media-network.js';
import { ingestServers, type Config } from '../../config.js';

/** Where media listens: the open sockets' ports, or the configured ones while none are open. */
function listeningView(open: MediaListening | null, config: Config): MediaListening & { open: boolean } {
  return open ? { ...open, open: true } : { ...plannedListening(mediaNetworkOf(config)), open: false };
}

const healthSchema = lazy(() =>
  z.object({
    status: z.literal('ok'),
    version: z.string(),
    clock: z.object({ now: z.string(), mode: z.enum(['real', 'manual']) }),
    organizations: z.number().int(),
    media: z
      .object({
        mode: z.enum(['on', 'off']),
        plane: z.enum(['process', 'inline']),
        plane_pid: z.number().int().nullable().meta({
          description: "The media plane's process while one runs (--media-plane process: from the first transport until the last closes); null otherwise",
        }),
        listening: z
          .object({
            address: z.string().meta({ description: 'The address the media sockets bind (--host)' }),
            candidates: z.array(z.string()).meta({ description: 'The addresses the pages are told to send media to (--media-announce, else the bound one)' }),
            udp_port: z.number().int().nullable().meta({
              description: 'The UDP port every transport shares (--media-port); null with a range, or while nothing is open and the system picks it',
            }),
            udp_port_range: z
              .object({ from: z.number().int(), to: z.number().int() })
              .nullable()
              .meta({ description: 'The range each transport takes a UDP port of its own from (--media-port from-to); null: one shared port' }),
            tcp_port: z.number().int().nullable().meta({
              description: 'The TCP port every transport shares, for pages whose network carries no UDP; null while nothing is open and the system picks it',
            }),
            open: z.boolean().meta({ description: 'Whether the sockets are open now (from the first transport until the last closes)' }),
          })
          .meta({ description: 'Where media listens: the ports while they are open, else those configured' }),
        transports: z.number().int(),
        producers: z.number().int(),
        consumers: z.number().int(),
      })
      .meta({
        description:
          "Whether media flows (--media), where the media plane runs (--media-plane) and listens, and the pages' and bots' open WebRTC transports, published tracks and received tracks",
      }),
    recordings: z
      .object({
        mode: z
          .enum(['real', 'sample'])
          .meta({ description: 'real: recordings hold the meeting (made with ffmpeg); sample: every recording is the bundled sample file' }),
        ffmpeg: z.string().nullable().meta({ description: 'The ffmpeg the recorder runs, while recordings are real' }),
        reason: z.string().nullable().meta({ description: 'Why recordings are the sample, in one sentence (ffmpeg not found, or --recordings sample)' }),
        recording: z.number().int().meta({ description: 'Recordings being made now' }),
        disk_bytes: z.number().int().meta({ description: "Bytes the recordings' files take on disk (freed by a reset)" }),
        disk_limit_bytes: z.number().int().meta({ description: '--recording-disk-limit, in bytes' }),
      })
      .meta({ description: 'What recordings hold, and the disk their files take' }),
    livestreams: z
      .object({
        mode: z.enum(['real', 'sample']).meta({
          description:
            "real: livestreams show the meeting or an encoder's push, packaged as HLS with ffmpeg; sample: the simulator's timer and the sample segments",
        }),
        ffmpeg: z.string().nullable().meta({ description: 'The ffmpeg that packages, while livestreams are real' }),
        reason: z.string().nullable().meta({ description: 'Why livestreams are simulated (--livestreams sample, --media off, ffmpeg not found)' }),
        segment_seconds: z.number().int().meta({ description: '--hls-segment-seconds' }),
        packaging: z.number().int().meta({ description: 'Livestreams being packaged now (the room or an encoder)' }),
        files: z.number().int().meta({ description: 'HLS files on disk (playlists and segments; freed by a stop, a reset)' }),
        bytes: z.number().int(),
        ingest: z
          .object({
            rtmps: z.string().nullable().meta({ description: "The RTMPS ingest (the livestreams' ingest_server), null when off (--rtmps-port)" }),
            rtmp: z.string().nullable().meta({ description: 'The plain RTMP ingest, null when off (--rtmp-port)' }),
            connections: z.number().int().meta({ description: 'Encoders connected now' }),
            publishing: z.number().int().meta({ description: 'Of those, publishing to a livestream' }),
          })
          .meta({ description: 'Where encoders push (append the stream key), and their connections' }),
      })
      .meta({ description: "What carries livestreams' pictures, their files on disk, and the RTMP ingest" }),
    chat_files: z
      .object({ files: z.number().int(), bytes: z.number().int() })
      .meta({ description: 'The images and files pages uploaded for chat that the emulator holds in memory (a reset frees them)' }),
    storage: z
      .object({
        endpoints: z.object({ aws: z.string().nullable(), digitalocean: z.string().nullable(), azure: z.string().nullable() }),
        sftp_hosts: z.array(z.string()),
        uploads_in_flight: z.number().int(),
      })
      .meta({
        description:
          "Where recordings with a storage_config are uploaded (--storage-endpoint): aws, digitalocean and azure only to their endpoint (null: never sent anything); SFTP to this machine's loopback always, and to another host only when sftp_hosts lists it (or *); and the uploads running now",
      }),
  }),
);

/** What recordings hold and the disk they take, as the health check tells it (and the start line says it). */
export function recordingsHealth(deps: Deps) {
  const { files } = deps.services.recordings;
  return {
    mode: files.real ? ('real' as const) : ('sample' as const),
    ffmpeg: files.ffmpeg ?? null,
    reason: files.why ?? null,
    recording: files.recording,
    disk_bytes: files.bytes,
    disk_limit_bytes: files.limitBytes,
  };
}

/** What livestreams carry and where encoders push, as the health check tells it (and the start line says it). */
export function livestreamsHealth(deps: Deps) {
  const mode = deps.livestreamMedia;
  const ingest = ingestServers(deps.config);
  return {
    mode: mode.real ? ('real' as const) : ('sample' as const),
    ffmpeg: mode.real ? mode.ffmpeg : null,
    reason: mode.real ? null : mode.why,
    segment_seconds: deps.config.hlsSegmentSeconds,
    ...deps.signalling.livestreamCounts(),
    ingest: { rtmps: ingest.rtmps, rtmp: ingest.rtmp, ...deps.ingest.counts() },
  };
}

export const systemRoutes = [
  route({
    method: 'get',
    path: '/_emulator/health',
    api: 'control',
    auth: 'none',
    tag: 'Control: system',
    summary: 'Health: 200 once fixtures are loaded',
    responses: { 200: { description: 'Healthy', schema: () => healthSchema() } },
    handler: ({ deps }) => ({
      status: 200,
      body: {
        status: 'ok' as const,
        version: VERSION,
        clock: clockView(deps.clock),
        organizations: deps.store.orgs.size,
        media: {
          mode: deps.config.media,
          plane: deps.config.mediaPlane,
          plane_pid: deps.signalling.mediaPlanePid(),
          listening: listeningView(deps.signalling.mediaListening(), deps.config),
          ...deps.signalling.mediaCounts(),
        },
        recordings: recordingsHealth(deps),
        livestreams: livestreamsHealth(deps),
        chat_files: deps.services.chatFiles.counts(),
        storage: {
          endpoints: {
            aws: deps.config.storageEndpoints.aws ?? null,
            digitalocean: deps.config.storageEndpoints.digitalocean ?? null,
            azure: deps.config.storageEndpoints.azure ?? null,
          },
          sftp_hosts: [...(deps.config.storageEndpoints.sftpHosts ?? [])],
          uploads_in_flight: deps.storage.pending,
        },
      },
    }),
  }),
  route({
    method: 'get',
    path: '/.well-known/jwks.json',
    api: 'control',
    auth: 'none',
    tag: 'Discovery',
    summary: 'Public keys that verify participant tokens (RS256)',
    responses: {
      200: {
        description: 'JWKS',
        schema: () =>
          z.object({
            keys: z.array(z.object({ kty: z.literal('RSA'), n: z.string(), e: z.string(), kid: z.string(), alg: z.literal('RS256'), use: z.literal('sig') })),
          }),
      },
    },
    handler: ({ deps }) => ({ status: 200, body: deps.services.participants.tokens.jwks() }),
  }),
];

/** The document is built once from the whole route table (app.ts) and served as is. */
export function openApiRoute(document: () => JsonText) {
  return route({
    method: 'get',
    path: '/_emulator/openapi.json',
    api: 'control',
    auth: 'none',
    tag: 'Control: system',
    summary: 'This OpenAPI 3.1 document',
    responses: {
      200: { description: 'OpenAPI 3.1 (with an ETag)', schema: () => z.looseObject({ openapi: z.string() }) },
      304: { description: "Not modified: If-None-Match named this document's ETag" },
    },
    handler: ({ req }) => {
      const doc = document();
      const headers = { etag: doc.etag };
      return doc.matches(req.headers['if-none-match']) ? { status: 304, headers } : { status: 200, body: doc, headers };
    },
  });
}
