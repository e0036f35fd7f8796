// A streaming Matroska (and WebM) writer: the one container the recorder speaks. It carries
// timestamps per frame, so it feeds ffmpeg what it cannot guess on its own: the decoders get each
// track's frames as sent (VP8, VP9, Opus), the encoder gets the composite's raw pictures and sound
// stamped on the recording's own timeline (a span the clock jumped is one picture held, not
// thousands), and a track recording's tracks are written as they were sent.
//
// Written for a pipe or a file that is never rewritten: the segment and every cluster have the
// "unknown" size, as a live stream does, and there are no cues. Timestamps are in milliseconds.
// Pure: Buffers out, nothing read.
//
// Element ids and layout: the Matroska specification (RFC 9559) and the WebM subset.

export interface MatroskaVideo {
  kind: 'video';
  /** V_VP8, V_VP9, or V_UNCOMPRESSED (raw pictures; `colourSpace` names their layout, e.g. I420). */
  codecId: string;
  width: number;
  height: number;
  colourSpace?: string;
  /** How long each frame lasts unless the next says otherwise (ms): what the last one lasts. */
  defaultDurationMs?: number;
  name?: string;
}

export interface MatroskaAudio {
  kind: 'audio';
  /** A_OPUS, or A_PCM/INT/LIT (signed little-endian samples of `bitDepth`). */
  codecId: string;
  sampleRate: number;
  channels: number;
  bitDepth?: number;
  codecPrivate?: Buffer;
  /** The codec's delay in ns (Opus: its pre-skip). */
  codecDelayNs?: number;
  name?: string;
}

export type MatroskaTrack = MatroskaVideo | MatroskaAudio;

const ID = {
  EBML: 0x1a45dfa3,
  EBMLVersion: 0x4286,
  EBMLReadVersion: 0x42f7,
  EBMLMaxIDLength: 0x42f2,
  EBMLMaxSizeLength: 0x42f3,
  DocType: 0x4282,
  DocTypeVersion: 0x4287,
  DocTypeReadVersion: 0x4285,
  Segment: 0x18538067,
  Info: 0x1549a966,
  TimestampScale: 0x2ad7b1,
  MuxingApp: 0x4d80,
  WritingApp: 0x5741,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackUID: 0x73c5,
  TrackType: 0x83,
  FlagLacing: 0x9c,
  Name: 0x536e,
  CodecID: 0x86,
  CodecPrivate: 0x63a2,
  CodecDelay: 0x56aa,
  SeekPreRoll: 0x56bb,
  Video: 0xe0,
  DefaultDuration: 0x23e383,
  PixelWidth: 0xb0,
  PixelHeight: 0xba,
  ColourSpace: 0x2eb524,
  Audio: 0xe1,
  SamplingFrequency: 0xb5,
  Channels: 0x9f,
  BitDepth: 0x6264,
  Cluster: 0x1f43b675,
  Timestamp: 0xe7,
  SimpleBlock: 0xa3,
} as const;

/** The size of an element whose end is not known when it starts (a live segment or cluster). */
const UNKNOWN_SIZE = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
/** A SimpleBlock's timestamp is a signed 16-bit offset from its cluster's. */
const MAX_BLOCK_OFFSET_MS = 30_000;
/** A new cluster at least this often, so a reader that starts late (or a player seeking) finds one soon. */
const CLUSTER_SPAN_MS = 2_000;

function idBytes(id: number): Buffer {
  const bytes: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from(bytes);
}

/** An EBML variable-size integer for an element's size (1 to 8 bytes). */
export function vintSize(n: number): Buffer {
  for (let len = 1; len <= 8; len++) {
    // The all-ones value of a length is reserved for "unknown".
    if (n < 2 ** (7 * len) - 1) {
      const out = Buffer.alloc(len);
      let v = n;
      for (let i = len - 1; i >= 0; i--) {
        out[i] = v % 256;
        v = Math.floor(v / 256);
      }
      out[0]! |= 1 << (8 - len);
      return out;
    }
  }
  throw new Error(`Matroska: an element of ${n} bytes is too large`);
}

function element(id: number, body: Buffer): Buffer {
  return Buffer.concat([idBytes(id), vintSize(body.length), body]);
}

function uint(id: number, value: number): Buffer {
  const bytes: number[] = [];
  for (let v = value; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return element(id, Buffer.from(bytes.length > 0 ? bytes : [0]));
}

function float(id: number, value: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(value);
  return element(id, b);
}

function str(id: number, value: string): Buffer {
  return element(id, Buffer.from(value, 'utf8'));
}

function master(id: number, children: Buffer[]): Buffer {
  return element(id, Buffer.concat(children));
}

function trackEntry(track: MatroskaTrack, number: number): Buffer {
  const common = [uint(ID.TrackNumber, number), uint(ID.TrackUID, number), uint(ID.TrackType, track.kind === 'video' ? 1 : 2), uint(ID.FlagLacing, 0)];
  if (track.name) common.push(str(ID.Name, track.name));
  common.push(str(ID.CodecID, track.codecId));
  if (track.kind === 'video') {
    if (track.defaultDurationMs) common.push(uint(ID.DefaultDuration, Math.round(track.defaultDurationMs * 1_000_000)));
    const video = [uint(ID.PixelWidth, track.width), uint(ID.PixelHeight, track.height)];
    if (track.colourSpace) video.push(element(ID.ColourSpace, Buffer.from(track.colourSpace, 'latin1')));
    return master(ID.TrackEntry, [...common, master(ID.Video, video)]);
  }
  if (track.codecPrivate) common.push(element(ID.CodecPrivate, track.codecPrivate));
  if (track.codecDelayNs) common.push(uint(ID.CodecDelay, track.codecDelayNs), uint(ID.SeekPreRoll, 80_000_000));
  const audio = [float(ID.SamplingFrequency, track.sampleRate), uint(ID.Channels, track.channels)];
  if (track.bitDepth) audio.push(uint(ID.BitDepth, track.bitDepth));
  return master(ID.TrackEntry, [...common, master(ID.Audio, audio)]);
}

/** The Opus identification header a Matroska Opus track carries as its codec private data (RFC 7845 §5.1). */
export function opusHead(channels: number, preSkip = 312, sampleRate = 48_000): Buffer {
  const b = Buffer.alloc(19);
  b.write('OpusHead', 0, 'latin1');
  b[8] = 1;
  b[9] = channels;
  b.writeUInt16LE(preSkip, 10);
  b.writeUInt32LE(sampleRate, 12);
  b.writeInt16LE(0, 16);
  b[18] = 0;
  return b;
}

export class MatroskaWriter {
  private clusterAt: number | undefined;

  /**
   * `tracks` are numbered from 1 in the order given. The header (EBML, segment, info and tracks) is
   * written at once through `write`.
   */
  constructor(
    readonly tracks: readonly MatroskaTrack[],
    private readonly write: (bytes: Buffer) => void,
    docType: 'matroska' | 'webm' = 'matroska',
  ) {
    const ebml = master(ID.EBML, [
      uint(ID.EBMLVersion, 1),
      uint(ID.EBMLReadVersion, 1),
      uint(ID.EBMLMaxIDLength, 4),
      uint(ID.EBMLMaxSizeLength, 8),
      str(ID.DocType, docType),
      uint(ID.DocTypeVersion, 4),
      uint(ID.DocTypeReadVersion, 2),
    ]);
    const info = master(ID.Info, [uint(ID.TimestampScale, 1_000_000), str(ID.MuxingApp, 'meetings-emulator'), str(ID.WritingApp, 'meetings-emulator')]);
    const tracksElement = master(
      ID.Tracks,
      tracks.map((t, i) => trackEntry(t, i + 1)),
    );
    write(Buffer.concat([ebml, idBytes(ID.Segment), UNKNOWN_SIZE, info, tracksElement]));
  }

  /** One frame of track `number` (1-based) at `ms`; a keyframe (every audio frame is one) may start a cluster. */
  frame(number: number, ms: number, data: Buffer, keyframe: boolean): void {
    const at = Math.max(0, Math.round(ms));
    const offset = this.clusterAt === undefined ? Infinity : at - this.clusterAt;
    if (offset > MAX_BLOCK_OFFSET_MS || offset < -MAX_BLOCK_OFFSET_MS || (keyframe && offset >= CLUSTER_SPAN_MS)) {
      this.clusterAt = at;
      this.write(Buffer.concat([idBytes(ID.Cluster), UNKNOWN_SIZE, uint(ID.Timestamp, at)]));
    }
    const header = Buffer.alloc(4);
    header[0] = 0x80 | number;
    header.writeInt16BE(at - this.clusterAt!, 1);
    header[3] = keyframe ? 0x80 : 0;
    this.write(Buffer.concat([idBytes(ID.SimpleBlock), vintSize(header.length + data.length), header]));
    this.write(data);
  }
}
