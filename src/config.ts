// One options table feeds the command-line flags, the environment variables, the defaults and
// `--help`. parseConfig turns argv + env into a frozen, typed Config or a one-line reason.
import path from 'node:path';
import { realNowWholeSecond } from './core/clock.js';
import { isoInstant } from './core/iso-time.js';
import { isIP } from 'node:net';
import { PACKAGE_ROOT } from './core/package-info.js';

export { PACKAGE_ROOT };
export const DEFAULT_FIXTURES = path.join(PACKAGE_ROOT, 'fixtures', 'default.json');
/** Where `npm run build` puts the dashboard (scripts/build-ui.mjs). */
export const DEFAULT_UI_DIR = path.join(PACKAGE_ROOT, 'dist', 'ui');

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** auto: readable lines on a terminal, JSON lines otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty';

export interface Config {
  port: number;
  host: string;
  fixtures: string;
  clock: 'real' | 'manual';
  startTime: number | undefined;
  timeScale: number;
  seed: string | undefined;
  /** Base of every URL handed out: --public-url, or derived from host and port. */
  publicUrl: string;
  /**
   * Whether publicUrl was given (--public-url, EMULATOR_PUBLIC_URL, an override) rather than
   * derived: a derived one follows the port picked at listen time (see withListenPort).
   */
  publicUrlGiven: boolean;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** Webhooks from configuration: subscribed to every event of every organization. */
  webhookUrls: readonly string[];
  webhookTimeoutMs: number;
  deliveryLogSize: number;
  journalSize: number;
  rateLimit: number;
  stateFile: string | undefined;
  stateSaveInterval: number;
  /** The simulator's starting mode for recordings and livestreams (PATCH /_emulator/simulator changes it). */
  simulator: 'auto' | 'manual';
  /** The partner credential of /v2/orgs (`Authorization: Bearer <token>`). */
  partnerToken: string;
  /**
   * The TLS listener's port (the web SDK's hosts, docs/frontend-offline.md): null turns it off,
   * 0 picks a free port. On the command line 0 turns it off, as the issue of a fixed default
   * port is a second emulator, not a free one.
   */
  tlsPort: number | null;
  /** PEM files of the TLS listener's certificate and key (both or neither); neither: one made by the emulator. */
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  /**
   * Whether audio and video flow between the pages of a meeting (on), or every media request is
   * refused with the SDK's own error (off: machines whose network carries no UDP).
   */
  media: 'on' | 'off';
  /**
   * Where the media plane runs (the WebRTC endpoints, the forwarding, the bots' clips): in a process
   * of its own, started when a page joins a media room (before its first transport) and ended once it
   * has held nothing for mediaPlaneIdleMs, so that the memory a room used goes back to the system
   * (process); or in the emulator's own process (inline).
   */
  mediaPlane: 'process' | 'inline';
  /**
   * How long the media plane's process stays once it holds nothing (no transport, track, recording or
   * livestream), in real ms: the next page within that time uses it instead of starting another. 0
   * ends it at once.
   */
  mediaPlaneIdleMs: number;
  /**
   * What a recording's files hold: the meeting, as the media plane's recorder composes and encodes
   * it with ffmpeg (real; the sample when ffmpeg cannot be found), or always the bundled sample file
   * (sample: no encoder runs, as fast as it gets).
   */
  recordings: 'real' | 'sample';
  /**
   * Where a livestream's picture comes from: the meeting's room (a meeting's livestream) or an
   * RTMP encoder pushing to its stream key, packaged as HLS by the media plane with ffmpeg (real;
   * without ffmpeg or with media off, the simulator); sample: the simulator's timer moves every
   * livestream and its playback loops the bundled sample segments.
   */
  livestreams: 'real' | 'sample';
  /** The plain RTMP ingest's port: null turns it off, 0 picks a free port. */
  rtmpPort: number | null;
  /** The RTMPS ingest's port (the TLS listener's certificate): null turns it off, 0 picks a free port. */
  rtmpsPort: number | null;
  /** The length of a real livestream's HLS segments, in seconds. */
  hlsSegmentSeconds: number;
  /** The ffmpeg executable the recorder runs (unset: `ffmpeg` found on PATH). */
  ffmpeg: string | undefined;
  /** The most disk, in MB, the recordings' files take together before the oldest finished ones are let go. */
  recordingDiskLimitMb: number;
  /**
   * The media plane's ports: one UDP port (and the TCP port of the same number, for pages that
   * cannot send UDP) shared by every transport of every room; 0 for a UDP and a TCP port the system
   * picks, each on its own; or a range `{ from, to }` that gives each transport a UDP port of its own
   * (TCP on `from`).
   */
  mediaPort: number | { from: number; to: number };
  /**
   * The address written in the media plane's ICE candidates instead of the one it binds: the host
   * as the pages reach it (in a container with mapped ports, 127.0.0.1). Unset: the bound address.
   */
  mediaAnnounce: string | undefined;
  /**
   * How long a WebRTC transport may stay failed (ICE or DTLS) before it is released and the room is
   * told, in real ms: werift reports a connection failed for a moment during a renegotiation.
   */
  mediaFailedGraceMs: number;
  /**
   * Where recordings go that ask for an app's own storage (storage_config): an S3-compatible
   * server per S3 type, Azure's blob service, the SFTP hosts other than this machine's loopback
   * the emulator may connect to. An S3 or Azure type without one is never sent anywhere; an SFTP
   * config naming this machine's loopback always is.
   */
  storageEndpoints: StorageEndpoints;
  /** An upload to an app's storage that has not finished within this many ms fails. */
  storageTimeoutMs: number;
  /**
   * The dashboard's built files (default: the package's dist/ui). Not an option: the emulator
   * serves its own build; a config from defaultConfig() may name another folder, as the tests of
   * the pages do with a stand-in build.
   */
  uiDir: string;
}

/** `--storage-endpoint TYPE=URL`, as parsed. */
export interface StorageEndpoints {
  /** The S3-compatible server of `type: "aws"` (path-style addressing). */
  aws?: string;
  /** The S3-compatible server of `type: "digitalocean"` (Spaces speak the S3 API). */
  digitalocean?: string;
  /** The blob service of `type: "azure"`, with the account in its path (Azurite's form). */
  azure?: string;
  /** The hosts an SFTP config may name (`*`: any); the config gives host and port. None when absent. */
  sftpHosts?: readonly string[];
}

type Key = keyof Config;
/** The keys an option sets; publicUrlGiven is derived from them, and uiDir is set only in code. */
type OptionKey = Exclude<Key, 'publicUrlGiven' | 'uiDir'>;

interface Option<K extends OptionKey> {
  key: K;
  flag: string;
  env: string;
  /** The flag may be given more than once: its values add up (as one comma-separated value). */
  repeatable?: boolean;
  /** Shown in --help; `undefined` means "unset". */
  defaultText: string;
  description: string;
  /** Parses the raw string; throws Error with a reason on a bad value. */
  parse(raw: string): Config[K];
}

class ConfigError extends Error {}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function int(min: number, max: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw)) throw new ConfigError(`must be a whole number, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max) throw new ConfigError(`must be between ${min} and ${max}, got ${n}`);
    return n;
  };
}

/** The rule the control API applies to a time (core/iso-time.ts), so both accept the same strings. */
function isoTime(raw: string): number {
  if (!isoInstant.safeParse(raw).success) throw new ConfigError(`must be an ISO 8601 time with a zone, such as 2026-01-01T00:00:00Z, got "${raw}"`);
  return Date.parse(raw);
}

function httpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function oneOf<T extends string>(values: readonly T[]) {
  return (raw: string): T => {
    if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`must be one of ${values.join(', ')}, got "${raw}"`);
    return raw as T;
  };
}

/** Comma-separated http(s) URLs, kept exactly as written (a trailing slash is part of a URL). */
function urlList(raw: string): readonly string[] {
  const urls = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (urls.length === 0) throw new ConfigError('must list at least one http(s) URL');
  for (const u of urls) {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      throw new ConfigError(`must be comma-separated http(s) URLs, got "${u}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`must be comma-separated http(s) URLs, got "${u}"`);
  }
  if (new Set(urls).size !== urls.length) throw new ConfigError('must not list the same URL twice');
  return Object.freeze(urls);
}

const ENDPOINT_TYPES = ['aws', 'digitalocean', 'azure', 'sftp'] as const;

/**
 * A storage endpoint's URL, without credentials: the start line, health, the request journal and
 * the dashboard show it as given, so a user:password in it, or a query string (an Azure SAS token),
 * would be shown everywhere. The storage_config's own credentials sign every upload. The refusal
 * never quotes the URL: what is wrong with it is a secret.
 */
function endpointUrl(type: string, raw: string): string {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  const shown = 'it would be shown on the start line, in health and in the request journal; the storage_config signs every upload with its own credentials';
  if (url ? url.username !== '' || url.password !== '' : raw.includes('@'))
    throw new ConfigError(`${type}= must not carry credentials (user:password@ in the URL): ${shown}`);
  // A ? or a # always starts a query or a fragment, in a URL or not.
  if (/[?#]/.test(raw)) throw new ConfigError(`${type}= must not carry a query string or fragment (a SAS token is a credential): ${shown}`);
  return httpUrl(raw);
}

/**
 * `TYPE=URL` entries, comma-separated: an http(s) URL for aws, digitalocean and azure (once each),
 * a host name or address for sftp (any number, `*` for any host).
 */
export function storageEndpoints(raw: string): StorageEndpoints {
  const out: { -readonly [K in keyof StorageEndpoints]: StorageEndpoints[K] } = { sftpHosts: [] };
  const sftpHosts: string[] = [];
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    const type = eq < 0 ? entry : entry.slice(0, eq);
    const value = eq < 0 ? '' : entry.slice(eq + 1).trim();
    if (type === 'gcs') throw new ConfigError('gcs: uploads to Google Cloud Storage are not emulated (the config is kept, nothing is sent)');
    if (!(ENDPOINT_TYPES as readonly string[]).includes(type))
      throw new ConfigError(`must be TYPE=URL with TYPE one of ${ENDPOINT_TYPES.join(', ')}, got "${entry}"`);
    if (value === '') throw new ConfigError(`${type}= needs a value (${type === 'sftp' ? 'a host, or *' : 'an http(s) URL'})`);
    if (type === 'sftp') {
      if (!/^(\*|[A-Za-z0-9._:[\]-]{1,253})$/.test(value)) throw new ConfigError(`sftp= takes a host name or address (or *), got "${value}"`);
      sftpHosts.push(value);
      continue;
    }
    const key = type as 'aws' | 'digitalocean' | 'azure';
    if (out[key] !== undefined) throw new ConfigError(`names ${type} twice`);
    out[key] = endpointUrl(type, value);
  }
  out.sftpHosts = Object.freeze([...new Set(sftpHosts)]);
  return Object.freeze(out);
}

/** Why endpoints given in code (startEmulator's storageEndpoints) cannot be used, as the option would say it; undefined when they can. */
export function storageEndpointsProblem(e: StorageEndpoints): string | undefined {
  try {
    for (const type of ['aws', 'digitalocean', 'azure'] as const) {
      const url = e[type];
      if (url !== undefined) endpointUrl(type, url);
    }
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return undefined;
}

function nonEmpty(raw: string): string {
  if (raw.length === 0) throw new ConfigError('must not be empty');
  return raw;
}

/** A Bearer value: printable, no spaces. Never echoed in the reason, since it is a credential. */
function bearerToken(raw: string): string {
  if (!/^[\x21-\x7e]{8,512}$/.test(raw)) throw new ConfigError('must be 8 to 512 printable characters without spaces');
  return raw;
}

/** A port (0: the system picks one), or a range `from-to` of ports above 0. */
function portOrRange(raw: string): number | { from: number; to: number } {
  const range = /^(\d+)-(\d+)$/.exec(raw);
  if (!range) return int(0, 65535)(raw);
  const [from, to] = [Number(range[1]), Number(range[2])];
  if (from < 1 || to > 65535 || from > to)
    throw new ConfigError(`must be a port, or a range from-to of ports between 1 and 65535 with from <= to, got "${raw}"`);
  return { from, to };
}

/** An IP address, or a host name the pages' browsers resolve. */
function address(raw: string): string {
  const bare = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  if (isIP(bare) === 0 && !/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(bare))
    throw new ConfigError(`must be an IP address or a host name, got "${raw}"`);
  return bare;
}

function positiveNumber(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n <= 0) throw new ConfigError(`must be a positive number, got "${raw}"`);
  return n;
}

export const OPTIONS: { [K in OptionKey]: Option<K> }[OptionKey][] = [
  { key: 'port', flag: '--port', env: 'PORT', defaultText: '4700', description: 'Port to listen on (0 picks a free port).', parse: int(0, 65535) },
  { key: 'host', flag: '--host', env: 'HOST', defaultText: '127.0.0.1', description: 'Interface to listen on (0.0.0.0 in a container).', parse: nonEmpty },
  {
    key: 'fixtures',
    flag: '--fixtures',
    env: 'EMULATOR_FIXTURES',
    defaultText: 'fixtures/default.json (bundled)',
    description: 'Fixtures file: organizations, presets, categories, sample data.',
    parse: nonEmpty,
  },
  {
    key: 'clock',
    flag: '--clock',
    env: 'EMULATOR_CLOCK',
    defaultText: 'real',
    description: 'real: time flows; manual: time moves only through /_emulator/clock.',
    parse: oneOf(['real', 'manual'] as const),
  },
  {
    key: 'startTime',
    flag: '--start-time',
    env: 'EMULATOR_START_TIME',
    defaultText: 'now (manual: to the whole second; with --seed 2026-01-01T00:00:00.000Z)',
    description: 'ISO time the emulated clock starts at.',
    parse: isoTime,
  },
  {
    key: 'timeScale',
    flag: '--time-scale',
    env: 'EMULATOR_TIME_SCALE',
    defaultText: '1',
    description: 'Real clock only: emulated ms per real ms (60 = a real second is an emulated minute).',
    parse: positiveNumber,
  },
  {
    key: 'seed',
    flag: '--seed',
    env: 'EMULATOR_SEED',
    defaultText: 'unset (random)',
    description: 'Makes every generated id, key and token reproducible.',
    parse: nonEmpty,
  },
  {
    key: 'publicUrl',
    flag: '--public-url',
    env: 'EMULATOR_PUBLIC_URL',
    defaultText: 'http://<host>:<port>',
    description: 'Base of every URL the emulator hands out (download, playback).',
    parse: httpUrl,
  },
  {
    key: 'journalSize',
    flag: '--journal-size',
    env: 'EMULATOR_JOURNAL_SIZE',
    defaultText: '1000',
    description: 'Requests kept in the request journal (0 turns it off).',
    parse: int(0, 1_000_000),
  },
  {
    key: 'rateLimit',
    flag: '--rate-limit',
    env: 'EMULATOR_RATE_LIMIT',
    defaultText: '0 (off)',
    description: 'Requests per minute per client on /v1, /v2 and the RealtimeKit prefix before 429 (emulator clock).',
    parse: int(0, 10_000_000),
  },
  {
    key: 'simulator',
    flag: '--simulator',
    env: 'EMULATOR_SIMULATOR',
    defaultText: 'auto',
    description: 'auto: recordings start, upload and livestreams go live by themselves; manual: only forced transitions move them.',
    parse: oneOf(['auto', 'manual'] as const),
  },
  {
    key: 'partnerToken',
    flag: '--partner-token',
    env: 'EMULATOR_PARTNER_TOKEN',
    defaultText: 'emulator-partner-token',
    description: 'Bearer token of the partner API (/v2/orgs), which creates and edits organizations.',
    parse: bearerToken,
  },
  {
    key: 'tlsPort',
    flag: '--tls-port',
    env: 'EMULATOR_TLS_PORT',
    defaultText: '4443',
    description: "HTTPS port for the web SDK's hosts (api.localhost, socket-edge.localhost, …) and every route (0 turns it off).",
    parse: (raw) => int(0, 65535)(raw) || null,
  },
  {
    key: 'tlsCert',
    flag: '--tls-cert',
    env: 'EMULATOR_TLS_CERT',
    defaultText: 'unset (a self-signed one, made on first use)',
    description: "PEM certificate of the HTTPS port (with --tls-key), e.g. from mkcert; unset: a self-signed one for localhost and the SDK's hosts.",
    parse: nonEmpty,
  },
  {
    key: 'tlsKey',
    flag: '--tls-key',
    env: 'EMULATOR_TLS_KEY',
    defaultText: 'unset',
    description: 'PEM private key of --tls-cert.',
    parse: nonEmpty,
  },
  {
    key: 'media',
    flag: '--media',
    env: 'EMULATOR_MEDIA',
    defaultText: 'on',
    description:
      "on: pages publish camera, microphone and screen over WebRTC (UDP, or TCP where UDP is blocked, on --host and --media-port) and see each other's; off: media requests are refused with the SDK's own error, everything else works.",
    parse: oneOf(['on', 'off'] as const),
  },
  {
    key: 'mediaPlane',
    flag: '--media-plane',
    env: 'EMULATOR_MEDIA_PLANE',
    defaultText: 'process',
    description:
      "process: the media plane (WebRTC endpoints, forwarding, bots' clips) runs in a child process started when a page joins a media room (before its first transport) and ended once it has held nothing for --media-plane-idle-ms, so a room's memory goes back to the system; inline: in the emulator's own process.",
    parse: oneOf(['process', 'inline'] as const),
  },
  {
    key: 'mediaPlaneIdleMs',
    flag: '--media-plane-idle-ms',
    env: 'EMULATOR_MEDIA_PLANE_IDLE_MS',
    defaultText: '10000',
    description:
      "How long the media plane's process (--media-plane process) stays once it holds nothing (no page's transport, bot track, recording or livestream), in real ms: a page that joins within that time uses it instead of waiting for another to start (about 0.3 s, and as much CPU, each). 0 ends it as soon as it holds nothing, which gives its memory back soonest.",
    parse: int(0, 3_600_000),
  },
  {
    key: 'recordings',
    flag: '--recordings',
    env: 'EMULATOR_RECORDINGS',
    defaultText: 'real',
    description:
      'real: a recording holds the meeting (its tiles, screen shares and voices, in the codecs and size it asked for), made by the media plane with ffmpeg; without ffmpeg, the sample file; sample: every recording is the bundled 5-second sample file, and no encoder runs.',
    parse: oneOf(['real', 'sample'] as const),
  },
  {
    key: 'livestreams',
    flag: '--livestreams',
    env: 'EMULATOR_LIVESTREAMS',
    defaultText: 'real',
    description:
      "real: a meeting's livestream shows the meeting (its tiles and voices) and any livestream shows what an RTMP encoder pushes to its stream key, as HLS made by the media plane with ffmpeg; LIVE and IDLE follow the picture; without ffmpeg or with --media off, the simulator; sample: the simulator's timer makes livestreams LIVE and their playback loops the bundled sample segments.",
    parse: oneOf(['real', 'sample'] as const),
  },
  {
    key: 'rtmpPort',
    flag: '--rtmp-port',
    env: 'EMULATOR_RTMP_PORT',
    defaultText: '1935',
    description: "Plain RTMP ingest port, for encoders that cannot trust the emulator's certificate (0 turns it off).",
    parse: (raw) => int(0, 65535)(raw) || null,
  },
  {
    key: 'rtmpsPort',
    flag: '--rtmps-port',
    env: 'EMULATOR_RTMPS_PORT',
    defaultText: '1936',
    description: "RTMPS ingest port, on the TLS listener's certificate: the livestreams' ingest_server (0 turns it off).",
    parse: (raw) => int(0, 65535)(raw) || null,
  },
  {
    key: 'hlsSegmentSeconds',
    flag: '--hls-segment-seconds',
    env: 'EMULATOR_HLS_SEGMENT_SECONDS',
    defaultText: '1',
    description: "Length of a real livestream's HLS segments: shorter ones bring the viewers closer to live.",
    parse: int(1, 10),
  },
  {
    key: 'ffmpeg',
    flag: '--ffmpeg',
    env: 'EMULATOR_FFMPEG',
    defaultText: 'unset (ffmpeg on PATH)',
    description: 'The ffmpeg executable that makes recordings and livestreams.',
    parse: nonEmpty,
  },
  {
    key: 'recordingDiskLimitMb',
    flag: '--recording-disk-limit',
    env: 'EMULATOR_RECORDING_DISK_LIMIT',
    defaultText: '4096',
    description:
      "MB of disk the recordings' files may take together (in a temporary directory, freed by a reset and at stop); beyond it the oldest finished recordings' files are removed first.",
    parse: int(16, 10_000_000),
  },
  {
    key: 'mediaPort',
    flag: '--media-port',
    env: 'EMULATOR_MEDIA_PORT',
    defaultText: '0 (the system picks them)',
    description:
      'UDP port every WebRTC transport shares, on --host (TCP on the same number, for pages that cannot send UDP); 0 lets the system pick a UDP and a TCP port, each on its own; a range from-to gives each transport a UDP port of its own (TCP on from).',
    parse: portOrRange,
  },
  {
    key: 'mediaAnnounce',
    flag: '--media-announce',
    env: 'EMULATOR_MEDIA_ANNOUNCE',
    defaultText: 'unset (the address media binds)',
    description:
      "Address the pages are told to send media to (their ICE candidates): the host as the browser reaches it, e.g. 127.0.0.1 for a container whose media port is mapped to the host's loopback.",
    parse: address,
  },
  {
    key: 'mediaFailedGraceMs',
    flag: '--media-failed-grace-ms',
    env: 'EMULATOR_MEDIA_FAILED_GRACE_MS',
    defaultText: '5000',
    description:
      "How long a page's WebRTC transport may stay failed (ICE or DTLS: a page gone without a word) before it is released and the others are told its tracks ended, in real ms. werift reports a connection failed for a moment while a renegotiation is under way: not much below a second.",
    parse: int(100, 600_000),
  },
  {
    key: 'storageEndpoints',
    flag: '--storage-endpoint',
    env: 'EMULATOR_STORAGE_ENDPOINTS',
    repeatable: true,
    defaultText: "none (only SFTP to this machine's loopback is sent)",
    description:
      "Where recordings with a storage_config are uploaded: TYPE=URL, repeatable (env: comma-separated). aws=URL and digitalocean=URL: an S3-compatible server (MinIO, LocalStack; path-style); azure=URL: the blob service with the account in its path (Azurite: http://127.0.0.1:10000/devstoreaccount1); a URL carries no credentials (no user:password@, no query string such as a SAS token): the storage_config's own sign every upload; sftp=HOST: a host other than this machine an SFTP config may name (* for any). An SFTP config naming this machine's loopback (localhost, 127.x.x.x, ::1) is always sent; aws, digitalocean and azure without an endpoint are never sent anywhere.",
    parse: storageEndpoints,
  },
  {
    key: 'storageTimeoutMs',
    flag: '--storage-timeout-ms',
    env: 'EMULATOR_STORAGE_TIMEOUT_MS',
    defaultText: '30000',
    description: "An upload to an app's storage that has not finished within this many ms fails (the recording ends ERRORED).",
    parse: int(1, 3_600_000),
  },
  {
    key: 'webhookUrls',
    flag: '--webhook-url',
    env: 'EMULATOR_WEBHOOK_URLS',
    defaultText: 'none',
    description: 'Comma-separated webhook URLs that receive every event of every organization.',
    parse: urlList,
  },
  {
    key: 'webhookTimeoutMs',
    flag: '--webhook-timeout-ms',
    env: 'EMULATOR_WEBHOOK_TIMEOUT_MS',
    defaultText: '3000',
    description: 'A webhook receiver must answer within this many ms, or the attempt fails.',
    parse: int(1, 600_000),
  },
  {
    key: 'deliveryLogSize',
    flag: '--delivery-log-size',
    env: 'EMULATOR_DELIVERY_LOG_SIZE',
    defaultText: '10000',
    description: 'Webhook deliveries kept in the log (delivered go first; pending are never dropped).',
    parse: int(1, 1_000_000),
  },
  {
    key: 'stateFile',
    flag: '--state-file',
    env: 'EMULATOR_STATE_FILE',
    defaultText: 'unset (state lives in memory only)',
    description: 'State file: loaded at start when present, written on SIGTERM/SIGINT and every --state-save-interval seconds.',
    parse: nonEmpty,
  },
  {
    key: 'stateSaveInterval',
    flag: '--state-save-interval',
    env: 'EMULATOR_STATE_SAVE_INTERVAL',
    defaultText: '30',
    description: 'Seconds between saves of --state-file (0: only on shutdown).',
    parse: int(0, 86_400),
  },
  {
    key: 'logLevel',
    flag: '--log-level',
    env: 'EMULATOR_LOG_LEVEL',
    defaultText: 'info',
    description: `One of ${LOG_LEVELS.join(', ')}.`,
    parse: oneOf(LOG_LEVELS),
  },
  {
    key: 'logFormat',
    flag: '--log-format',
    env: 'EMULATOR_LOG_FORMAT',
    defaultText: 'auto',
    description: 'auto: readable lines when stderr is a terminal, JSON lines otherwise; json; pretty (readable lines always).',
    parse: oneOf(['auto', 'json', 'pretty'] as const),
  },
];

/** Where a seeded manual clock starts when no start time is given: the same moment on every run. */
export const DEFAULT_MANUAL_START = Date.parse('2026-01-01T00:00:00.000Z');

/**
 * Where a manual clock starts: the start time when one is given. Otherwise the real time to the
 * whole second, so that the tokens it issues are valid for a client that verifies them by its own
 * clock; but a seeded run starts at DEFAULT_MANUAL_START, since the same requests must give the
 * same bytes on every run. (A real clock starts at the start time, or now.)
 */
export function manualClockStart(config: Pick<Config, 'startTime' | 'seed'>): number {
  return config.startTime ?? (config.seed !== undefined ? DEFAULT_MANUAL_START : realNowWholeSecond());
}

export type ParseResult = { ok: true; config: Config } | { ok: false; reason: string } | { ok: true; help: true } | { ok: true; version: true };

/** The host as it goes into a URL: wildcard binds become localhost, IPv6 literals get brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The TLS listener's URL, undefined when it is off. A loopback or wildcard host is named
 * `localhost`: the web SDK calls `<prefix>.<base>`, and `api.localhost` reaches the loopback
 * where `api.127.0.0.1` is no name at all.
 */
export function tlsUrl(config: Pick<Config, 'host' | 'tlsPort'>): string | undefined {
  if (config.tlsPort === null) return undefined;
  const loopback = ['127.0.0.1', '::1', '[::1]', 'localhost'].includes(config.host);
  return `https://${loopback ? 'localhost' : urlHost(config.host)}:${config.tlsPort}`;
}

const NO_STORAGE_ENDPOINTS: StorageEndpoints = Object.freeze({ sftpHosts: Object.freeze([]) });

/** Defaults for everything; used by the in-process API and tests, which pass overrides. */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  const base: Config = {
    port: 4700,
    host: '127.0.0.1',
    fixtures: DEFAULT_FIXTURES,
    clock: 'real',
    startTime: undefined,
    timeScale: 1,
    seed: undefined,
    publicUrl: '',
    logLevel: 'info',
    logFormat: 'auto',
    webhookUrls: [],
    webhookTimeoutMs: 3000,
    deliveryLogSize: 10_000,
    journalSize: 1000,
    rateLimit: 0,
    stateFile: undefined,
    stateSaveInterval: 30,
    simulator: 'auto',
    partnerToken: 'emulator-partner-token',
    tlsPort: 4443,
    media: 'on',
    mediaPlane: 'process',
    mediaPlaneIdleMs: 10_000,
    recordings: 'real',
    livestreams: 'real',
    rtmpPort: 1935,
    rtmpsPort: 1936,
    hlsSegmentSeconds: 1,
    ffmpeg: undefined,
    recordingDiskLimitMb: 4096,
    mediaPort: 0,
    mediaAnnounce: undefined,
    mediaFailedGraceMs: 5000,
    storageEndpoints: NO_STORAGE_ENDPOINTS,
    storageTimeoutMs: 30_000,
    tlsCert: undefined,
    tlsKey: undefined,
    uiDir: DEFAULT_UI_DIR,
    ...overrides,
    // A config spread into new overrides keeps its answer; a new non-empty URL counts as given.
    publicUrlGiven: Boolean(overrides.publicUrl) && overrides.publicUrlGiven !== false,
  };
  if (!base.publicUrl) base.publicUrl = `http://${urlHost(base.host)}:${base.port}`;
  return Object.freeze(base);
}

/**
 * The config once the server listens on `port` (which differs from config.port when that was 0),
 * and the TLS listener on `tlsPort`: a public URL derived from the port follows it; one that was
 * given stays as it was.
 */
export function withListenPort(
  config: Config,
  port: number,
  tlsPort: number | null = config.tlsPort,
  ingest: Pick<Config, 'rtmpPort' | 'rtmpsPort'> = config,
): Config {
  if (port === config.port && tlsPort === config.tlsPort && ingest.rtmpPort === config.rtmpPort && ingest.rtmpsPort === config.rtmpsPort) return config;
  const ports = { port, tlsPort, rtmpPort: ingest.rtmpPort, rtmpsPort: ingest.rtmpsPort };
  return config.publicUrlGiven ? defaultConfig({ ...config, ...ports }) : defaultConfig({ ...config, ...ports, publicUrl: '' });
}

/**
 * Where an encoder pushes, as production's ingest_server gives it (`rtmps://<host>:<port>/app/`):
 * the RTMPS ingest, or the plain one when RTMPS is off. The host is the public URL's.
 */
export function ingestServers(config: Pick<Config, 'publicUrl' | 'rtmpPort' | 'rtmpsPort'>): { rtmps: string | null; rtmp: string | null } {
  const host = new URL(config.publicUrl).hostname;
  return {
    rtmps: config.rtmpsPort === null ? null : `rtmps://${host}:${config.rtmpsPort}/app/`,
    rtmp: config.rtmpPort === null ? null : `rtmp://${host}:${config.rtmpPort}/app/`,
  };
}

/** A reason is one line: control characters in echoed values are shown escaped. */
function failure(reason: string): ParseResult {
  // eslint-disable-next-line no-control-regex
  return { ok: false, reason: reason.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1)) };
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The known flag a mistyped one most likely meant (a typo or two away, or a prefix of it). */
function closestFlag(flag: string): string | undefined {
  let best: { flag: string; d: number } | undefined;
  for (const o of OPTIONS) {
    const d = o.flag.startsWith(flag) ? 0 : editDistance(flag, o.flag);
    if (d <= 2 && (!best || d < best.d)) best = { flag: o.flag, d };
  }
  return best?.flag;
}

/** Flags win over env vars, env vars over defaults. */
export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): ParseResult {
  const raw = new Map<Key, { value: string; source: string }>();
  for (const opt of OPTIONS) {
    const v = env[opt.env];
    if (v !== undefined && v !== '') raw.set(opt.key, { value: v, source: opt.env });
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { ok: true, help: true };
    if (arg === '--version' || arg === '-v') return { ok: true, version: true };
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const opt = OPTIONS.find((o) => o.flag === flag);
    if (!opt) {
      const close = flag.startsWith('--') ? closestFlag(flag) : undefined;
      return failure(`unknown option ${arg}${close ? ` (did you mean ${close}?)` : ''}; see --help`);
    }
    const value = inline ?? argv[++i];
    if (value === undefined) return failure(`${flag} needs a value; see --help`);
    // A repeated flag adds to the values of the same flag before it (the environment's are replaced).
    const before = raw.get(opt.key);
    raw.set(opt.key, { value: opt.repeatable && before?.source === flag ? `${before.value},${value}` : value, source: flag });
  }
  const parsed: Partial<Config> = {};
  for (const opt of OPTIONS) {
    const r = raw.get(opt.key);
    if (!r) continue;
    try {
      (parsed as Record<string, unknown>)[opt.key] = opt.parse(r.value);
    } catch (err) {
      return failure(`${r.source} ${(err as Error).message}`);
    }
  }
  return { ok: true, config: defaultConfig(parsed) };
}

export function helpText(): string {
  const rows = OPTIONS.map((o) => `  ${`${o.flag} <value>`.padEnd(26)} ${o.description}\n  ${''.padEnd(26)} env ${o.env}; default ${o.defaultText}`);
  return [
    'meetings-emulator: a local emulator of the meetings (v2) and product registry (v1) APIs.',
    '',
    'Usage: meetings-emulator [options]',
    '',
    'Options (flags win over environment variables):',
    ...rows,
    `  ${'--help'.padEnd(26)} Print this help.`,
    `  ${'--version'.padEnd(26)} Print the version.`,
    '',
  ].join('\n');
}
