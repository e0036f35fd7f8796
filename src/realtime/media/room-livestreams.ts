// The livestreams' pictures, the emulator's side (the way room-recordings.ts is the recorder's): each
// livestream with real media has a folder of HLS files the media plane writes and the media routes
// serve. A meeting's livestream shows the meeting from its creation: the room's composite, packaged
// by the plane, makes it LIVE once the first segment is out. Any livestream takes an RTMP encoder
// pushing to its stream key (rtmp-ingest.ts hands the connection here): the encoder's stream replaces
// the room's, its first segment makes the livestream LIVE. When the encoder goes, a meeting's
// livestream shows the meeting again and stays LIVE (the room is still there to show); a livestream
// of its own goes IDLE, and a new push makes it LIVE again. Each picture is a run of the plane's
// packager; the runs of a livestream number their segments on, so its playlist stays one live
// playlist, with a discontinuity where a run starts.
//
// The folder goes with the livestream's stop or failure, an organization's reset, a reset and the
// emulator's stop; so do the packagers, and the encoders' connections. A folder is removed once its
// packager has exited (one still running could write a last segment into it after), so each
// livestream's folder has a name of its own, one a new folder for the same livestream never takes.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DomainEvent } from '../../domain/events.js';
import type { Livestream } from '../../domain/models.js';
import type { RoomFeature, RoomState } from '../room-state.js';
import type { MediaRoomFeature } from './media-room.js';
import type { LivestreamSpec } from './media-types.js';
import type { RoomScenesFeature } from './room-scenes.js';

/** The size of a meeting's livestream picture (production streams a meeting at 720p). */
export const ROOM_LIVESTREAM_SIZE = { width: 1280, height: 720 } as const;
/** How often a run's folder is looked at until its first playlist is written (real ms). */
const FIRST_PLAYLIST_POLL_MS = 100;

/** What the livestream's media needs of the emulator: the ffmpeg that packages, the segments' length. */
export interface LivestreamMediaOptions {
  ffmpeg: string;
  segmentSeconds: number;
}

/** An encoder's connection, as the ingest hands it over: it is told to end when the livestream no longer takes it. */
export interface IngestConnection {
  /** Ends the connection (the livestream was stopped, disabled, or reset). */
  end(reason: string): void;
}

/** What the ingest writes to once a push is accepted. */
export interface IngestSink {
  write(bytes: Uint8Array): void;
  /** The encoder went away (or was dropped); `shutdown`: the emulator is stopping, nothing takes its place. */
  close(shutdown?: boolean): void;
}

interface Run {
  id: string;
  n: number;
  source: 'room' | 'encoder';
  playlist: string;
  poll: NodeJS.Timeout | undefined;
  connection: IngestConnection | undefined;
}

interface Feed {
  livestream: Livestream;
  dir: string;
  /** Runs started so far. */
  runs: number;
  nextSegment: number;
  current: Run | undefined;
  /** The playlist last served, while a new run has none yet. */
  lastPlaylist: string | undefined;
  /** Resolves once the packagers of the runs stopped so far have exited. */
  stopped: Promise<void>;
}

/** What the media routes serve of a livestream with real media. */
export interface LivestreamPlayback {
  /** The live media playlist, its segments as `segments/<n>.ts`; undefined before the first segment. */
  playlist(): string | undefined;
  /** A segment's file, when it exists. */
  segment(seq: number): string | undefined;
}

export class RoomLivestreamsFeature implements RoomFeature {
  readonly handlers = [];
  private readonly feeds = new Map<string, Feed>();
  private root: string | undefined;
  /** Folders waiting for their packager's exit to be removed. */
  private readonly removing = new Set<Promise<void>>();

  constructor(
    private readonly state: RoomState,
    private readonly media: MediaRoomFeature,
    private readonly scenes: RoomScenesFeature,
    private readonly options: LivestreamMediaOptions | null,
  ) {
    const engine = media.engine;
    engine.onRecorderEvent((e) => {
      if (!('failed' in e)) return;
      for (const feed of this.feeds.values()) if (feed.current?.id === e.id) this.failed(feed, `The livestream's packaging failed: ${e.failed}`);
    });
    engine.onPlaneLost(() => {
      for (const feed of [...this.feeds.values()]) if (feed.current) this.failed(feed, 'The media plane ended unexpectedly while livestreaming');
    });
    // Livestreams of meetings that were created before the rooms were made (creating one loads them).
    if (options) for (const l of state.deps.livestreams.allInState(['OFFLINE', 'LIVE'])) if (l.meetingId !== null) this.startRoom(l);
  }

  /** How many livestreams are being packaged now, and their folders' bytes on disk. */
  counts(): { packaging: number; files: number; bytes: number } {
    let files = 0;
    let bytes = 0;
    for (const feed of this.feeds.values()) {
      const listed = listFiles(feed.dir);
      files += listed.length;
      for (const f of listed) bytes += f.bytes;
    }
    return { packaging: [...this.feeds.values()].filter((f) => f.current).length, files, bytes };
  }

  /** What a livestream's playback serves, while it has real media. */
  playback(livestreamId: string): LivestreamPlayback | undefined {
    const feed = this.feeds.get(livestreamId);
    if (!feed) return undefined;
    return {
      playlist: () => this.playlistOf(feed),
      segment: (seq) => {
        const file = path.join(feed.dir, `seg${seq}.ts`);
        try {
          return statSync(file).isFile() ? file : undefined;
        } catch {
          return undefined;
        }
      },
    };
  }

  onDomainEvent(e: DomainEvent): void {
    if (e.type === 'livestream.statusChanged') this.livestreamChanged(e.livestream, e.previous);
    // A meeting's livestream enabled again shows the meeting again (its picture makes it LIVE).
    else if (e.type === 'livestream.enabled' && e.livestream.meetingId !== null && (e.livestream.state === 'OFFLINE' || e.livestream.state === 'IDLE')) {
      const feed = this.feeds.get(e.livestream.id);
      if (feed) feed.livestream = e.livestream;
      this.startRoom(e.livestream);
    }
  }

  /** The engine is reset with the media room: every packager is gone; the connections and folders go too. */
  onReset(): void {
    for (const feed of [...this.feeds.values()]) this.close(feed, 'The emulator was reset');
    const root = this.root;
    this.root = undefined;
    if (root) this.remove(root, Promise.all(this.removing));
  }

  /** Resolves once every folder of a stopped livestream is removed (the emulator's stop waits for it). */
  async removed(): Promise<void> {
    while (this.removing.size > 0) await Promise.all(this.removing);
  }

  onOrgReset(orgId: string): void {
    for (const feed of [...this.feeds.values()]) if (feed.livestream.orgId === orgId) this.close(feed, "The livestream's organization was reset");
  }

  /**
   * An encoder pushes to a livestream (its key checked by the ingest): its stream becomes the
   * livestream's picture, in place of the room's. Undefined when livestreams carry no real media.
   */
  ingest(livestream: Livestream, connection: IngestConnection): IngestSink | undefined {
    if (!this.options) return undefined;
    const feed = this.feedOf(livestream);
    if (feed.current?.connection) this.stopRun(feed, 'Another encoder connected with this stream key');
    const run = this.startRun(feed, 'encoder', connection);
    const engine = this.media.engine;
    return {
      write: (bytes) => {
        if (feed.current === run) engine.feedLivestream(run.id, bytes);
      },
      close: (shutdown = false) => {
        if (feed.current !== run) return;
        this.stopRun(feed);
        const l = this.state.deps.livestreams.find(livestream.orgId, livestream.id);
        // A meeting's livestream shows the meeting again: the room's picture takes over, the livestream stays LIVE.
        const active = l !== undefined && (l.state === 'OFFLINE' || l.state === 'LIVE' || l.state === 'IDLE') && !l.disabled;
        if (active && l.meetingId !== null && !shutdown) this.startRun(feed, 'room', undefined);
        else if (l?.state === 'LIVE') this.state.deps.livestreams.endIngest(l.orgId, l.id);
      },
    };
  }

  private livestreamChanged(l: Livestream, previous: Livestream['state'] | null): void {
    const feed = this.feeds.get(l.id);
    if (feed) feed.livestream = l;
    if (l.state === 'STOPPED' || l.state === 'ERRORED') {
      if (feed) this.close(feed, l.state === 'STOPPED' ? 'The livestream was stopped' : 'The livestream errored');
      return;
    }
    if (l.disabled && feed?.current) return this.stopRun(feed, 'The livestream was disabled');
    if (previous === null && l.meetingId !== null) this.startRoom(l);
  }

  private startRoom(l: Livestream): void {
    if (!this.options || this.feeds.get(l.id)?.current) return;
    this.startRun(this.feedOf(l), 'room', undefined);
  }

  private feedOf(l: Livestream): Feed {
    let feed = this.feeds.get(l.id);
    if (!feed) {
      this.root ??= mkdtempSync(path.join(os.tmpdir(), 'meetings-emulator-livestreams-'));
      const dir = mkdtempSync(path.join(this.root, `${l.id}-`));
      feed = { livestream: l, dir, runs: 0, nextSegment: 0, current: undefined, lastPlaylist: undefined, stopped: Promise.resolve() };
      this.feeds.set(l.id, feed);
    }
    return feed;
  }

  private startRun(feed: Feed, source: Run['source'], connection: IngestConnection | undefined): Run {
    this.stopRun(feed);
    const { ffmpeg, segmentSeconds } = this.options!;
    const n = feed.runs++;
    const run: Run = { id: `${feed.livestream.id}.${n}`, n, source, playlist: `run${n}.m3u8`, poll: undefined, connection };
    feed.current = run;
    const l = feed.livestream;
    const spec: LivestreamSpec = {
      id: run.id,
      ffmpeg,
      dir: feed.dir,
      playlist: run.playlist,
      firstSegment: feed.nextSegment,
      segmentSeconds,
      source: source === 'room' && l.meetingId !== null ? { kind: 'room', meetingId: l.meetingId, ...ROOM_LIVESTREAM_SIZE } : { kind: 'encoder' },
    };
    const room = spec.source.kind === 'room' ? spec.source.meetingId : null;
    this.media.engine.startLivestream(spec, room === null ? null : this.scenes.sceneOf(room)).then(
      () => {
        if (feed.current !== run) return;
        if (room !== null) this.scenes.watch(room, run.id);
        this.waitForPlaylist(feed, run);
      },
      (err: Error) => {
        if (feed.current === run) this.failed(feed, `The livestream's packaging could not start: ${err.message}`);
      },
    );
    return run;
  }

  /** The run's first playlist is written: the livestream is LIVE (unless it is already). */
  private waitForPlaylist(feed: Feed, run: Run): void {
    const look = () => {
      if (feed.current !== run) return;
      if (!exists(path.join(feed.dir, run.playlist))) {
        run.poll = setTimeout(look, FIRST_PLAYLIST_POLL_MS);
        run.poll.unref();
        return;
      }
      run.poll = undefined;
      const { livestreams } = this.state.deps;
      const l = livestreams.find(feed.livestream.orgId, feed.livestream.id);
      if (l && (l.state === 'OFFLINE' || l.state === 'IDLE') && !l.disabled) livestreams.goLive(l.orgId, l.id);
    };
    look();
  }

  /** Ends the current run: its packager stops, its encoder's connection ends (with `reason`). */
  private stopRun(feed: Feed, reason?: string): void {
    const run = feed.current;
    if (!run) return;
    feed.current = undefined;
    clearTimeout(run.poll);
    // The next run numbers its segments on from this one's.
    const text = readText(path.join(feed.dir, run.playlist));
    if (text !== undefined) {
      feed.lastPlaylist = this.rewrite(text, run.n);
      feed.nextSegment = Math.max(feed.nextSegment, lastSegmentOf(text) + 1);
    }
    feed.nextSegment = Math.max(feed.nextSegment, highestSegmentOnDisk(feed.dir) + 1);
    if (feed.livestream.meetingId !== null) this.scenes.unwatch(feed.livestream.meetingId, run.id);
    const exited = this.media.engine.stopLivestream(run.id);
    feed.stopped = Promise.all([feed.stopped, exited]).then(() => undefined);
    if (reason !== undefined) run.connection?.end(reason);
  }

  private close(feed: Feed, reason: string): void {
    this.stopRun(feed, reason);
    this.feeds.delete(feed.livestream.id);
    this.remove(feed.dir, feed.stopped);
  }

  /** Removes a folder once `after` (its packager's exit) has come. */
  private remove(dir: string, after: Promise<unknown>): void {
    const done: Promise<void> = after
      .then(() => rmSync(dir, { recursive: true, force: true }))
      .catch((err: Error) => this.state.deps.logger.warn({ err, dir }, "livestream: a stopped livestream's folder could not be removed"))
      .finally(() => this.removing.delete(done));
    this.removing.add(done);
  }

  private failed(feed: Feed, reason: string): void {
    this.stopRun(feed, reason);
    const { livestreams } = this.state.deps;
    const l = livestreams.find(feed.livestream.orgId, feed.livestream.id);
    this.state.deps.logger.warn({ livestream: feed.livestream.id, reason }, 'livestream failed');
    if (l && (l.state === 'OFFLINE' || l.state === 'LIVE' || l.state === 'IDLE')) livestreams.fail(l.orgId, l.id, reason);
    else this.close(feed, reason);
  }

  private playlistOf(feed: Feed): string | undefined {
    const run = feed.current;
    const text = run ? readText(path.join(feed.dir, run.playlist)) : undefined;
    if (text === undefined || !run) return feed.lastPlaylist;
    return (feed.lastPlaylist = this.rewrite(text, run.n));
  }

  /** ffmpeg's playlist as served: segments by their number, the runs before counted as discontinuities. */
  private rewrite(text: string, run: number): string {
    return text
      .replace(/^seg(\d+)\.ts$/gm, 'segments/$1.ts')
      .replace(/^(#EXT-X-MEDIA-SEQUENCE:\d+)$/m, `$1\n#EXT-X-DISCONTINUITY-SEQUENCE:${run}`)
      .replace(/^#EXT-X-ENDLIST\n?/m, '');
  }
}

function exists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function lastSegmentOf(playlist: string): number {
  const numbers = [...playlist.matchAll(/^seg(\d+)\.ts$/gm)].map((m) => Number(m[1]));
  return numbers.length > 0 ? Math.max(...numbers) : -1;
}

function listFiles(dir: string): { name: string; bytes: number }[] {
  const out: { name: string; bytes: number }[] = [];
  for (const name of readdirSafe(dir)) {
    try {
      out.push({ name, bytes: statSync(path.join(dir, name)).size });
    } catch {
      // Deleted meanwhile (a segment that slid out).
    }
  }
  return out;
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function highestSegmentOnDisk(dir: string): number {
  let max = -1;
  for (const name of readdirSafe(dir)) {
    const m = /^seg(\d+)\.ts(\.tmp)?$/.exec(name);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max;
}
