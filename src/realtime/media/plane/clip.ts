// The bots' sample clip (fixtures/media/clip, made by scripts/make-media.sh): VP8 video in IVF and
// Opus audio in Ogg, stored already encoded, so playing it needs no encoder. This module reads
// the two containers and cuts their frames into RTP payloads; clip-player.ts paces them in real
// time and adds the RTP headers.
//
// Everything here is pure (Buffers in, Buffers out) except loadClip, and none of it loads werift.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../../core/package-info.js';

/** Where make-media.sh writes the clip: the package's fixtures, from a checkout or an install. */
export const CLIP_DIR = path.join(PACKAGE_ROOT, 'fixtures', 'media', 'clip');
export const CLIP_VIDEO_FILE = 'video.ivf';
export const CLIP_AUDIO_FILE = 'audio.ogg';

// ---------------------------------------------------------------------------------------------
// IVF (the libvpx test container): a 32-byte file header, then per frame a 12-byte header (size
// u32le, pts u64le) and the frame. All fields little-endian.

export interface IvfHeader {
  /** Four characters; only 'VP80' is read. */
  fourcc: string;
  width: number;
  height: number;
  /** Seconds per pts unit: num / den (1/15 for 15 fps). */
  timebase: { num: number; den: number };
  /** As the header states it (checked against the frames when nonzero). */
  frameCount: number;
}

export interface IvfFrame {
  data: Buffer;
  /** In timebase units. */
  pts: number;
  /** The VP8 frame tag's P bit is 0 (an intra frame). */
  keyframe: boolean;
}

export interface IvfFile {
  header: IvfHeader;
  frames: IvfFrame[];
}

const IVF_HEADER_SIZE = 32;
const IVF_FRAME_HEADER_SIZE = 12;

/** A VP8 frame is a keyframe when bit 0 of its first byte (the frame tag's P bit) is 0 (RFC 6386 §9.1). */
export function isVp8Keyframe(frame: Uint8Array): boolean {
  return frame.length > 0 && ((frame[0] ?? 1) & 0x01) === 0;
}

/** Parses an IVF file holding VP8. Throws an Error naming the problem on a malformed file. */
export function readIvf(buf: Buffer): IvfFile {
  if (buf.length < IVF_HEADER_SIZE) throw new Error(`IVF: ${buf.length} bytes, shorter than the ${IVF_HEADER_SIZE}-byte file header`);
  const signature = buf.toString('latin1', 0, 4);
  if (signature !== 'DKIF') throw new Error(`IVF: bad signature ${JSON.stringify(signature)} (expected "DKIF")`);
  const version = buf.readUInt16LE(4);
  if (version !== 0) throw new Error(`IVF: unsupported version ${version} (expected 0)`);
  const headerSize = buf.readUInt16LE(6);
  if (headerSize < IVF_HEADER_SIZE || headerSize > buf.length) throw new Error(`IVF: header length ${headerSize} is invalid (file is ${buf.length} bytes)`);
  const fourcc = buf.toString('latin1', 8, 12);
  if (fourcc !== 'VP80') throw new Error(`IVF: codec ${JSON.stringify(fourcc)} is not VP8 ("VP80")`);
  const width = buf.readUInt16LE(12);
  const height = buf.readUInt16LE(14);
  if (width === 0 || height === 0) throw new Error(`IVF: frame size ${width}x${height} is empty`);
  const den = buf.readUInt32LE(16);
  const num = buf.readUInt32LE(20);
  if (den === 0 || num === 0) throw new Error(`IVF: time base ${num}/${den} has a zero`);
  const frameCount = buf.readUInt32LE(24);

  const frames: IvfFrame[] = [];
  let offset = headerSize;
  while (offset < buf.length) {
    const index = frames.length;
    if (buf.length - offset < IVF_FRAME_HEADER_SIZE) throw new Error(`IVF: frame ${index} header truncated at byte ${offset}`);
    const size = buf.readUInt32LE(offset);
    const pts = Number(buf.readBigInt64LE(offset + 4));
    if (!Number.isSafeInteger(pts)) throw new Error(`IVF: frame ${index} pts is out of range`);
    const start = offset + IVF_FRAME_HEADER_SIZE;
    if (size === 0) throw new Error(`IVF: frame ${index} is empty`);
    if (size > buf.length - start) throw new Error(`IVF: frame ${index} truncated: ${size} bytes stated, ${buf.length - start} left`);
    const data = buf.subarray(start, start + size);
    const keyframe = isVp8Keyframe(data);
    // A keyframe carries the start code 9d 01 2a and the frame size after its 3-byte tag.
    if (keyframe && (size < 10 || data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a)) {
      throw new Error(`IVF: frame ${index} is a VP8 keyframe without the start code 9d 01 2a`);
    }
    frames.push({ data, pts, keyframe });
    offset = start + size;
  }
  if (frames.length === 0) throw new Error('IVF: no frames');
  if (frameCount !== 0 && frameCount !== frames.length) throw new Error(`IVF: header states ${frameCount} frames, file holds ${frames.length}`);
  return { header: { fourcc, width, height, timebase: { num, den }, frameCount }, frames };
}

// ---------------------------------------------------------------------------------------------
// Ogg (RFC 3533) carrying Opus (RFC 7845): pages of segments; a packet is a run of segments
// ended by one shorter than 255 bytes, and may continue onto the next page. The first packet is
// the OpusHead header, the second OpusTags; the rest are audio packets.

export interface OggOpus {
  channels: number;
  /** Samples (48 kHz) the decoder drops at the start. */
  preSkip: number;
  /** The encoder's input rate, for information only (Opus always decodes at 48 kHz). */
  inputSampleRate: number;
  /** Audio packets in order, OpusHead and OpusTags left out. */
  packets: Buffer[];
}

const OGG_PAGE_HEADER_SIZE = 27;
const OGG_CONTINUED = 0x01;
const OGG_BOS = 0x02;

const OGG_CRC_TABLE = ((): Uint32Array => {
  // CRC-32, polynomial 0x04c11db7, not reflected, initial value 0, no final xor (RFC 3533 §6).
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** The Ogg page checksum of `page`, computed with its checksum field (bytes 22..25) as zero. */
export function oggCrc(page: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < page.length; i++) {
    const byte = i >= 22 && i < 26 ? 0 : (page[i] ?? 0);
    crc = ((crc << 8) ^ (OGG_CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  }
  return crc;
}

/** Splits an Ogg stream (one logical stream) into its packets. Throws on a malformed file. */
export function readOggPackets(buf: Buffer): Buffer[] {
  const packets: Buffer[] = [];
  let pending: Buffer[] = [];
  let serial: number | undefined;
  let pageIndex = 0;
  let offset = 0;
  while (offset < buf.length) {
    const where = `Ogg: page ${pageIndex} (byte ${offset})`;
    if (buf.length - offset < OGG_PAGE_HEADER_SIZE) throw new Error(`${where}: header truncated`);
    if (buf.toString('latin1', offset, offset + 4) !== 'OggS') throw new Error(`${where}: bad capture pattern (expected "OggS")`);
    const version = buf[offset + 4];
    if (version !== 0) throw new Error(`${where}: unsupported version ${String(version)}`);
    const flags = buf[offset + 5] ?? 0;
    const pageSerial = buf.readUInt32LE(offset + 14);
    const sequence = buf.readUInt32LE(offset + 18);
    const storedCrc = buf.readUInt32LE(offset + 22);
    const segments = buf[offset + 26] ?? 0;
    const bodyStart = offset + OGG_PAGE_HEADER_SIZE + segments;
    if (bodyStart > buf.length) throw new Error(`${where}: segment table truncated`);
    const lacing = buf.subarray(offset + OGG_PAGE_HEADER_SIZE, bodyStart);
    const bodySize = lacing.reduce((sum, n) => sum + n, 0);
    const end = bodyStart + bodySize;
    if (end > buf.length) throw new Error(`${where}: body truncated: ${bodySize} bytes stated, ${buf.length - bodyStart} left`);
    if (oggCrc(buf.subarray(offset, end)) !== storedCrc) throw new Error(`${where}: checksum mismatch`);
    if (serial === undefined) {
      if (!(flags & OGG_BOS)) throw new Error(`${where}: first page lacks the beginning-of-stream flag`);
      serial = pageSerial;
    } else if (pageSerial !== serial) {
      throw new Error(`${where}: a second logical stream (serial ${pageSerial}); only one is read`);
    }
    if (sequence !== pageIndex) throw new Error(`${where}: page sequence number ${sequence}, expected ${pageIndex} (a page is missing)`);
    const continued = (flags & OGG_CONTINUED) !== 0;
    if (continued !== pending.length > 0) {
      throw new Error(`${where}: ${continued ? 'continues a packet that the previous page ended' : 'starts anew while the previous page left a packet open'}`);
    }
    let at = bodyStart;
    for (const size of lacing) {
      pending.push(buf.subarray(at, at + size));
      at += size;
      if (size < 255) {
        packets.push(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending));
        pending = [];
      }
    }
    offset = end;
    pageIndex++;
  }
  if (pageIndex === 0) throw new Error('Ogg: no pages');
  if (pending.length > 0) throw new Error('Ogg: the last packet is cut off (its final page is missing)');
  return packets;
}

/** Parses an Ogg Opus file into its header fields and audio packets. Throws on a malformed file. */
export function readOggOpus(buf: Buffer): OggOpus {
  const [head, tags, ...packets] = readOggPackets(buf);
  if (!head || head.length < 19 || head.toString('latin1', 0, 8) !== 'OpusHead') throw new Error('Ogg Opus: the first packet is not an OpusHead header');
  const version = head[8] ?? 0;
  if (version >> 4 !== 0) throw new Error(`Ogg Opus: unsupported OpusHead version ${version}`);
  const channels = head[9] ?? 0;
  if (channels === 0) throw new Error('Ogg Opus: OpusHead states 0 channels');
  if (!tags || tags.length < 16 || tags.toString('latin1', 0, 8) !== 'OpusTags') throw new Error('Ogg Opus: the second packet is not an OpusTags header');
  if (packets.length === 0) throw new Error('Ogg Opus: no audio packets');
  packets.forEach((packet, i) => {
    try {
      opusPacketSamples(packet);
    } catch (err) {
      throw new Error(`Ogg Opus: audio packet ${i}: ${(err as Error).message}`, { cause: err });
    }
  });
  return { channels, preSkip: head.readUInt16LE(10), inputSampleRate: head.readUInt32LE(12), packets };
}

/**
 * Samples (at 48 kHz) an Opus packet decodes to, from its TOC byte (RFC 6716 §3.1): the frame
 * size from the configuration number, times the frame count from the code. Throws if invalid.
 */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) throw new Error('empty Opus packet');
  const config = toc >> 3;
  const frameSize =
    config < 12
      ? [480, 960, 1920, 2880][config % 4] // SILK-only: 10, 20, 40, 60 ms
      : config < 16
        ? [480, 960][config % 2] // Hybrid: 10, 20 ms
        : [120, 240, 480, 960][config % 4]; // CELT-only: 2.5, 5, 10, 20 ms
  const code = toc & 0x03;
  let frames = code === 0 ? 1 : 2;
  if (code === 3) {
    const count = packet[1];
    if (count === undefined) throw new Error('Opus code-3 packet without its frame count byte');
    frames = count & 0x3f;
    if (frames === 0) throw new Error('Opus code-3 packet with 0 frames');
  }
  const samples = (frameSize ?? 0) * frames;
  if (samples > 5760) throw new Error(`Opus packet of ${samples / 48} ms, longer than 120 ms`);
  return samples;
}

// ---------------------------------------------------------------------------------------------
// RTP payloads.

/** The default largest RTP payload (VP8 descriptor included), leaving room for headers in a 1200-byte packet. */
export const VP8_MAX_PAYLOAD = 1100;
/** X=1 with I=1 and a 15-bit PictureID: 4 bytes. */
export const VP8_DESCRIPTOR_SIZE = 4;

/**
 * The RFC 7741 §4.2 payload descriptor this packetizer writes: X=1, N=0, S as given, PID=0;
 * the extension byte with I=1 (L=T=K=0); then M=1 and the 15-bit PictureID.
 */
export function vp8Descriptor(start: boolean, pictureId: number): Buffer {
  const id = pictureId & 0x7fff;
  return Buffer.from([0x80 | (start ? 0x10 : 0), 0x80, 0x80 | (id >> 8), id & 0xff]);
}

/**
 * Cuts one VP8 frame into RTP payloads (RFC 7741): each is the descriptor followed by a piece of
 * the frame, no longer than `maxPayloadSize` in all; the pieces are as even as possible. S=1 on
 * the first only. The caller sets the RTP marker bit on the last payload's packet.
 */
export function vp8Payloads(frame: Uint8Array, pictureId: number, maxPayloadSize = VP8_MAX_PAYLOAD): Buffer[] {
  if (frame.length === 0) throw new Error('VP8: empty frame');
  const room = maxPayloadSize - VP8_DESCRIPTOR_SIZE;
  if (!Number.isInteger(maxPayloadSize) || room < 1)
    throw new Error(`VP8: max payload ${maxPayloadSize} leaves no room after the ${VP8_DESCRIPTOR_SIZE}-byte descriptor`);
  const count = Math.ceil(frame.length / room);
  const base = Math.floor(frame.length / count);
  const longer = frame.length % count; // the first `longer` pieces get one byte more
  const payloads: Buffer[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const size = base + (i < longer ? 1 : 0);
    payloads.push(Buffer.concat([vp8Descriptor(i === 0, pictureId), frame.subarray(at, at + size)]));
    at += size;
  }
  return payloads;
}

/** RFC 7587: an Opus packet is the RTP payload as it is, one per RTP packet. */
export function opusPayload(packet: Buffer): Buffer {
  return packet;
}

// ---------------------------------------------------------------------------------------------
// The clip.

export interface Clip {
  video: IvfFile;
  audio: OggOpus;
}

/** The clip's video: an IVF file whose first frame is a keyframe (each loop starts there). */
function readClipVideo(buf: Buffer): IvfFile {
  const video = readIvf(buf);
  if (!video.frames[0]?.keyframe) throw new Error('IVF: the first frame is not a keyframe');
  return video;
}

/** Parses the two files of a clip. */
export function parseClip(videoIvf: Buffer, audioOgg: Buffer): Clip {
  return { video: readClipVideo(videoIvf), audio: readOggOpus(audioOgg) };
}

/** Reads `video.ivf` and `audio.ogg` from `dir` (the packaged clip by default). Errors name the file. */
export async function loadClip(dir: string = CLIP_DIR): Promise<Clip> {
  const videoPath = path.join(dir, CLIP_VIDEO_FILE);
  const audioPath = path.join(dir, CLIP_AUDIO_FILE);
  const [videoIvf, audioOgg] = await Promise.all([readFile(videoPath), readFile(audioPath)]);
  return { video: naming(videoPath, () => readClipVideo(videoIvf)), audio: naming(audioPath, () => readOggOpus(audioOgg)) };
}

function naming<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`, { cause: err });
  }
}
