// The bots' clip: the IVF and Ogg Opus readers (on the real fixtures and on broken files), the
// RFC 7741 / RFC 7587 packetizers, and the ClipPlayer driven by a hand-turned ticker. Expected
// values are literals from the RFCs and from ffprobe's view of the fixtures, not read from src.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RtpHeader, RtpPacket, Vp8RtpPayload } from 'werift';
import { beforeAll, describe, expect, it } from 'vitest';
import { ClipPlayer, type MediaKind, type Ticker } from '../../src/realtime/media/plane/clip-player.js';
import { CLIP_DIR, loadClip, opusPacketSamples, parseClip, readIvf, readOggOpus, vp8Payloads, type Clip } from '../../src/realtime/media/plane/clip.js';

/** werift's RTP classes, which the player is given by the caller that loaded werift. */
const rtp = { RtpHeader, RtpPacket };

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/media/clip');
const ivfBytes = readFileSync(path.join(FIXTURES, 'video.ivf'));
const oggBytes = readFileSync(path.join(FIXTURES, 'audio.ogg'));

// ---------------------------------------------------------------------------------------------
// A bitwise Ogg CRC (RFC 3533 §6: polynomial 0x04c11db7, initial 0, no reflection, no final xor)
// and a page writer, independent of src, to build Ogg files the fixture does not exercise.

function crc32Ogg(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    crc >>>= 0;
  }
  return crc >>> 0;
}

function oggPage(opts: { flags: number; sequence: number; lacing: number[]; body: Buffer; serial?: number }): Buffer {
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'latin1');
  header[5] = opts.flags;
  header.writeUInt32LE(opts.serial ?? 7, 14);
  header.writeUInt32LE(opts.sequence, 18);
  header[26] = opts.lacing.length;
  const page = Buffer.concat([header, Buffer.from(opts.lacing), opts.body]);
  page.writeUInt32LE(crc32Ogg(page), 22);
  return page;
}

const opusHead = Buffer.concat([Buffer.from('OpusHead', 'latin1'), Buffer.from([1, 2, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0])]);
const opusTags = Buffer.concat([Buffer.from('OpusTags', 'latin1'), Buffer.from([0, 0, 0, 0, 0, 0, 0, 0])]);

/** Head page, tags page, then the pages given. */
function oggOpusFile(...pages: Buffer[]): Buffer {
  return Buffer.concat([
    oggPage({ flags: 0x02, sequence: 0, lacing: [opusHead.length], body: opusHead }),
    oggPage({ flags: 0, sequence: 1, lacing: [opusTags.length], body: opusTags }),
    ...pages,
  ]);
}

/** A packet of `n` bytes whose TOC is config 1 (SILK 20 ms), code 0. */
function opusPacket(n: number, fill: number): Buffer {
  const packet = Buffer.alloc(n, fill);
  packet[0] = 1 << 3;
  return packet;
}

// ---------------------------------------------------------------------------------------------

describe('readIvf', () => {
  it('reads the fixture: 320x180, 1/15 s time base, 75 frames, a keyframe every 15', () => {
    const { header, frames } = readIvf(ivfBytes);
    expect(header).toEqual({ fourcc: 'VP80', width: 320, height: 180, timebase: { num: 1, den: 15 }, frameCount: 75 });
    expect(frames).toHaveLength(75);
    expect(frames.map((f) => f.pts)).toEqual(Array.from({ length: 75 }, (_, i) => i));
    expect(frames.filter((f) => f.keyframe).map((f) => f.pts)).toEqual([0, 15, 30, 45, 60]);
    // A VP8 keyframe: P bit 0, start code 9d 01 2a, then 14-bit width and height (RFC 6386 §9.1).
    const first = frames[0]!.data;
    expect(first[0]! & 1).toBe(0);
    expect([...first.subarray(3, 6)]).toEqual([0x9d, 0x01, 0x2a]);
    expect(first.readUInt16LE(6) & 0x3fff).toBe(320);
    expect(first.readUInt16LE(8) & 0x3fff).toBe(180);
    expect(frames[1]!.data[0]! & 1).toBe(1);
    // 32-byte file header, 12 bytes before each frame, nothing else.
    expect(frames.reduce((sum, f) => sum + f.data.length, 0)).toBe(ivfBytes.length - 32 - 75 * 12);
    expect(ivfBytes.length).toBeLessThan(150_000);
  });

  it('refuses a wrong signature, another codec, a short header', () => {
    const bad = Buffer.from(ivfBytes);
    bad.write('RIFF', 0, 'latin1');
    expect(() => readIvf(bad)).toThrow('IVF: bad signature "RIFF" (expected "DKIF")');
    const vp9 = Buffer.from(ivfBytes);
    vp9.write('VP90', 8, 'latin1');
    expect(() => readIvf(vp9)).toThrow('IVF: codec "VP90" is not VP8 ("VP80")');
    expect(() => readIvf(ivfBytes.subarray(0, 20))).toThrow('IVF: 20 bytes, shorter than the 32-byte file header');
    expect(() => readIvf(Buffer.alloc(0))).toThrow(/shorter than the 32-byte file header/);
  });

  it('refuses a file cut inside a frame, inside a frame header, or after a whole frame', () => {
    const firstSize = ivfBytes.readUInt32LE(32);
    expect(() => readIvf(ivfBytes.subarray(0, 32 + 12 + 100))).toThrow(`IVF: frame 0 truncated: ${firstSize} bytes stated, 100 left`);
    expect(() => readIvf(ivfBytes.subarray(0, 32 + 12 + firstSize + 5))).toThrow('IVF: frame 1 header truncated at byte ' + (32 + 12 + firstSize));
    expect(() => readIvf(ivfBytes.subarray(0, 32 + 12 + firstSize))).toThrow('IVF: header states 75 frames, file holds 1');
    expect(() => readIvf(ivfBytes.subarray(0, 32))).toThrow('IVF: no frames');
  });

  it('refuses a keyframe without the VP8 start code, and a clip starting on an inter frame', () => {
    const noStart = Buffer.from(ivfBytes);
    noStart[32 + 12 + 3] = 0;
    expect(() => readIvf(noStart)).toThrow('IVF: frame 0 is a VP8 keyframe without the start code 9d 01 2a');
    const interFirst = Buffer.from(ivfBytes);
    interFirst[32 + 12] = interFirst[32 + 12]! | 1;
    expect(readIvf(interFirst).frames[0]!.keyframe).toBe(false);
    expect(() => parseClip(interFirst, oggBytes)).toThrow('IVF: the first frame is not a keyframe');
  });
});

describe('readOggOpus', () => {
  it('reads the fixture: mono, pre-skip 312, 251 packets of 20 ms', () => {
    const opus = readOggOpus(oggBytes);
    expect(opus.channels).toBe(1);
    expect(opus.preSkip).toBe(312);
    expect(opus.inputSampleRate).toBe(48_000);
    expect(opus.packets).toHaveLength(251);
    expect(opus.packets.every((p) => opusPacketSamples(p) === 960)).toBe(true);
    expect(opus.packets.reduce((sum, p) => sum + p.length, 0)).toBe(18_355); // ffprobe -show_packets
    expect(opus.packets.some((p) => p.subarray(0, 8).toString('latin1') === 'OpusHead' || p.subarray(0, 8).toString('latin1') === 'OpusTags')).toBe(false);
  });

  it("the test's CRC agrees with the fixture's first page", () => {
    const segments = oggBytes[26]!;
    const pageEnd = 27 + segments + oggBytes.subarray(27, 27 + segments).reduce((a, b) => a + b, 0);
    const page = Buffer.from(oggBytes.subarray(0, pageEnd));
    const stored = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    expect(crc32Ogg(page)).toBe(stored);
  });

  it('joins a packet that spans pages, and one that ends on a 255 lacing value followed by 0', () => {
    const long = opusPacket(600, 0xaa); // lacing 255, 255, 90
    const exact = opusPacket(255, 0xbb); // lacing 255, 0
    const short = opusPacket(3, 0xcc);
    const file = oggOpusFile(
      oggPage({ flags: 0, sequence: 2, lacing: [3, 255, 255], body: Buffer.concat([short, long.subarray(0, 510)]) }),
      oggPage({ flags: 0x01, sequence: 3, lacing: [90, 255], body: Buffer.concat([long.subarray(510), exact]) }),
      oggPage({ flags: 0x01 | 0x04, sequence: 4, lacing: [0, 3], body: short }),
    );
    const opus = readOggOpus(file);
    expect(opus.channels).toBe(2);
    expect(opus.preSkip).toBe(312);
    expect(opus.packets.map((p) => p.length)).toEqual([3, 600, 255, 3]);
    expect(opus.packets[1]!.equals(long)).toBe(true);
    expect(opus.packets[2]!.equals(exact)).toBe(true);
  });

  it('refuses a wrong capture pattern, a bad checksum, a cut file, a missing page', () => {
    const bad = Buffer.from(oggBytes);
    bad.write('RIFF', 0, 'latin1');
    expect(() => readOggOpus(bad)).toThrow('Ogg: page 0 (byte 0): bad capture pattern (expected "OggS")');
    const flipped = Buffer.from(oggBytes);
    flipped[oggBytes.length - 1] = flipped[oggBytes.length - 1]! ^ 0xff;
    expect(() => readOggOpus(flipped)).toThrow(/Ogg: page \d+ \(byte \d+\): checksum mismatch/);
    // The last page (7) starts at byte 18858 and is 31 bytes long.
    expect(() => readOggOpus(oggBytes.subarray(0, oggBytes.length - 10))).toThrow('Ogg: page 7 (byte 18858): header truncated');
    expect(() => readOggOpus(oggBytes.subarray(0, 18_850))).toThrow(/Ogg: page 6 \(byte \d+\): body truncated: \d+ bytes stated, \d+ left/);
    expect(() => readOggOpus(oggBytes.subarray(0, 10))).toThrow('Ogg: page 0 (byte 0): header truncated');
    expect(() => readOggOpus(Buffer.alloc(0))).toThrow('Ogg: no pages');
    const p = opusPacket(3, 1);
    const gap = oggOpusFile(oggPage({ flags: 0, sequence: 3, lacing: [3], body: p }));
    expect(() => readOggOpus(gap)).toThrow('page sequence number 3, expected 2 (a page is missing)');
  });

  it('refuses a packet left open at the end, a continuation of nothing, a second stream', () => {
    const open = oggOpusFile(oggPage({ flags: 0, sequence: 2, lacing: [255], body: opusPacket(255, 1) }));
    expect(() => readOggOpus(open)).toThrow('Ogg: the last packet is cut off (its final page is missing)');
    const orphan = oggOpusFile(oggPage({ flags: 0x01, sequence: 2, lacing: [3], body: opusPacket(3, 1) }));
    expect(() => readOggOpus(orphan)).toThrow('continues a packet that the previous page ended');
    const other = oggOpusFile(oggPage({ flags: 0, sequence: 2, lacing: [3], body: opusPacket(3, 1), serial: 8 }));
    expect(() => readOggOpus(other)).toThrow('a second logical stream (serial 8)');
  });

  it('refuses a file without OpusHead or OpusTags, or without audio', () => {
    const vorbis = Buffer.from('\x01vorbis' + '\0'.repeat(23), 'latin1');
    expect(() => readOggOpus(oggPage({ flags: 0x02, sequence: 0, lacing: [vorbis.length], body: vorbis }))).toThrow(
      'Ogg Opus: the first packet is not an OpusHead header',
    );
    const noTags = Buffer.concat([
      oggPage({ flags: 0x02, sequence: 0, lacing: [opusHead.length], body: opusHead }),
      oggPage({ flags: 0, sequence: 1, lacing: [3], body: opusPacket(3, 1) }),
    ]);
    expect(() => readOggOpus(noTags)).toThrow('Ogg Opus: the second packet is not an OpusTags header');
    expect(() => readOggOpus(oggOpusFile())).toThrow('Ogg Opus: no audio packets');
    const empty = oggOpusFile(oggPage({ flags: 0, sequence: 2, lacing: [3, 0], body: opusPacket(3, 1) }));
    expect(() => readOggOpus(empty)).toThrow('Ogg Opus: audio packet 1: empty Opus packet');
  });
});

describe('opusPacketSamples (RFC 6716 §3.1 TOC)', () => {
  it('reads frame size and count', () => {
    expect(opusPacketSamples(Buffer.from([(1 << 3) | 0]))).toBe(960); // SILK NB 20 ms, one frame
    expect(opusPacketSamples(Buffer.from([(3 << 3) | 1]))).toBe(5760); // SILK 60 ms, two frames
    expect(opusPacketSamples(Buffer.from([(13 << 3) | 2]))).toBe(1920); // Hybrid 20 ms, two frames
    expect(opusPacketSamples(Buffer.from([(16 << 3) | 0]))).toBe(120); // CELT 2.5 ms
    expect(opusPacketSamples(Buffer.from([(31 << 3) | 3, 3]))).toBe(2880); // CELT 20 ms x 3
    expect(() => opusPacketSamples(Buffer.alloc(0))).toThrow('empty Opus packet');
    expect(() => opusPacketSamples(Buffer.from([(31 << 3) | 3]))).toThrow('without its frame count byte');
    expect(() => opusPacketSamples(Buffer.from([(31 << 3) | 3, 0]))).toThrow('with 0 frames');
    expect(() => opusPacketSamples(Buffer.from([(3 << 3) | 3, 3]))).toThrow('longer than 120 ms');
  });
});

describe('vp8Payloads (RFC 7741)', () => {
  const frame = Buffer.from(Array.from({ length: 2500 }, (_, i) => (i * 7) & 0xff));

  it('writes X=1, S on the first only, PID=0, I=1, M=1 and the 15-bit PictureID', () => {
    const payloads = vp8Payloads(frame, 0x1234);
    expect(payloads).toHaveLength(3); // 2500 bytes, 1096 per payload after the 4-byte descriptor
    expect([...payloads[0]!.subarray(0, 4)]).toEqual([0x90, 0x80, 0x92, 0x34]);
    expect([...payloads[1]!.subarray(0, 4)]).toEqual([0x80, 0x80, 0x92, 0x34]);
    expect([...payloads[2]!.subarray(0, 4)]).toEqual([0x80, 0x80, 0x92, 0x34]);
    expect([...vp8Payloads(frame, 0x7fff + 3)[0]!.subarray(0, 4)]).toEqual([0x90, 0x80, 0x80, 0x02]);
  });

  it('keeps every payload within the limit, evenly, and the pieces rebuild the frame', () => {
    const payloads = vp8Payloads(frame, 1);
    expect(payloads.map((p) => p.length)).toEqual([838, 837, 837]);
    expect(Buffer.concat(payloads.map((p) => p.subarray(4))).equals(frame)).toBe(true);
    const small = vp8Payloads(frame, 1, 104);
    expect(small).toHaveLength(25);
    expect(small.every((p) => p.length <= 104)).toBe(true);
    expect(Buffer.concat(small.map((p) => p.subarray(4))).equals(frame)).toBe(true);
    expect(vp8Payloads(Buffer.from([1, 2, 3]), 1)).toHaveLength(1);
    expect(() => vp8Payloads(Buffer.alloc(0), 1)).toThrow('VP8: empty frame');
    expect(() => vp8Payloads(frame, 1, 4)).toThrow(/leaves no room/);
  });

  it("werift's depacketizer sees a keyframe in the first payload of the fixture's first frame", () => {
    const [key, inter] = readIvf(ivfBytes).frames;
    const payloads = vp8Payloads(key!.data, 77);
    const parsed = Vp8RtpPayload.deSerialize(payloads[0]!);
    expect(parsed.sBit).toBe(1);
    expect(parsed.pid).toBe(0);
    expect(parsed.iBit).toBe(1);
    expect(parsed.mBit).toBe(1);
    expect(parsed.pictureId).toBe(77);
    expect(parsed.isKeyframe).toBe(true);
    expect(Vp8RtpPayload.deSerialize(payloads[1]!).isKeyframe).toBe(false); // not a partition start
    expect(Vp8RtpPayload.deSerialize(vp8Payloads(inter!.data, 78)[0]!).isKeyframe).toBe(false);
  });
});

describe('loadClip', () => {
  it('reads the packaged clip from the fixtures folder', async () => {
    expect(CLIP_DIR).toBe(FIXTURES);
    const clip = await loadClip();
    expect(clip.video.frames).toHaveLength(75);
    expect(clip.audio.packets).toHaveLength(251);
  });

  it('names the file that is broken or missing', async () => {
    await expect(loadClip(path.join(FIXTURES, 'nowhere'))).rejects.toThrow(/ENOENT/);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clip-'));
    writeFileSync(path.join(dir, 'video.ivf'), ivfBytes);
    writeFileSync(path.join(dir, 'audio.ogg'), oggBytes.subarray(0, 100));
    await expect(loadClip(dir)).rejects.toThrow(`${path.join(dir, 'audio.ogg')}: Ogg: page 1 (byte `);
    writeFileSync(path.join(dir, 'video.ivf'), 'not a video');
    await expect(loadClip(dir)).rejects.toThrow(`${path.join(dir, 'video.ivf')}: IVF: 11 bytes, shorter than the 32-byte file header`);
  });
});

// ---------------------------------------------------------------------------------------------

class FakeTicker implements Ticker {
  time = 1_000_000;
  readonly periods: number[] = [];
  readonly timers = new Set<() => void>();

  every(ms: number, fn: () => void): () => void {
    this.periods.push(ms);
    this.timers.add(fn);
    return () => this.timers.delete(fn);
  }

  now(): number {
    return this.time;
  }

  /** Moves time on in 10 ms steps, firing the timers at each. */
  advance(ms: number, step = 10): void {
    for (let done = 0; done < ms; done += step) {
      this.time += step;
      for (const fn of [...this.timers]) fn();
    }
  }
}

interface Sent {
  kind: MediaKind;
  packet: RtpPacket;
}

describe('ClipPlayer', () => {
  let clip: Clip;
  beforeAll(async () => {
    clip = await loadClip();
  });

  const streams = { video: { ssrc: 0x11111111, payloadType: 96 }, audio: { ssrc: 0x22222222, payloadType: 111 } };

  function play(options: ConstructorParameters<typeof ClipPlayer>[3] = {}): {
    player: ClipPlayer;
    ticker: FakeTicker;
    sent: Sent[];
    of: (k: MediaKind) => RtpPacket[];
  } {
    const ticker = new FakeTicker();
    const sent: Sent[] = [];
    const player = new ClipPlayer(clip, rtp, (kind, packet) => sent.push({ kind, packet }), { ...streams, ticker, ...options });
    return { player, ticker, sent, of: (k) => sent.filter((s) => s.kind === k).map((s) => s.packet) };
  }

  /** The video frames sent: the packets of each, split at the marker bit. */
  function framesOf(packets: RtpPacket[]): RtpPacket[][] {
    const frames: RtpPacket[][] = [];
    let current: RtpPacket[] = [];
    for (const p of packets) {
      current.push(p);
      if (p.header.marker) {
        frames.push(current);
        current = [];
      }
    }
    return frames;
  }

  const frameData = (packets: RtpPacket[]): Buffer => Buffer.concat(packets.map((p) => p.payload.subarray(4)));

  it('sends the first frames at start, on a 10 ms ticker, with the streams named', () => {
    const { player, ticker, sent, of } = play();
    player.start();
    expect(ticker.periods).toEqual([10]);
    expect(of('audio')).toHaveLength(1);
    expect(of('video').length).toBeGreaterThan(1); // a keyframe of ~4 KB takes several packets
    expect(of('video').at(-1)!.header.marker).toBe(true);
    const first = sent[0]!.packet;
    expect(first.header).toMatchObject({ version: 2, payloadType: 96, ssrc: 0x11111111, sequenceNumber: 0, timestamp: 0 });
    expect(of('audio')[0]!.header).toMatchObject({ payloadType: 111, ssrc: 0x22222222, sequenceNumber: 0, timestamp: 0, marker: true });
    // Serializes as RTP: V=2, M|PT, sequence number.
    const wire = first.serialize();
    expect(wire[0]).toBe(0x80);
    expect(wire[1]).toBe(96);
    player.stop();
  });

  it('keeps timestamps and sequence numbers going across loops, each loop starting on the keyframe', () => {
    const { player, ticker, of } = play();
    player.start();
    ticker.advance(11_000); // two loops of 5 s and a bit
    player.stop();
    const video = of('video');
    const frames = framesOf(video);
    expect(frames).toHaveLength(166); // 0..11 s at 15 fps, both ends
    frames.forEach((packets, i) => {
      expect(packets.every((p) => p.header.timestamp === i * 6000)).toBe(true); // 90 kHz / 15 fps
      expect(Vp8RtpPayload.deSerialize(packets[0]!.payload).pictureId).toBe(i);
    });
    video.forEach((p, i) => expect(p.header.sequenceNumber).toBe(i));
    const clipFrames = clip.video.frames;
    expect(frameData(frames[75]!).equals(clipFrames[0]!.data)).toBe(true);
    expect(frameData(frames[150]!).equals(clipFrames[0]!.data)).toBe(true);
    expect(frameData(frames[74]!).equals(clipFrames[74]!.data)).toBe(true);
    expect(Vp8RtpPayload.deSerialize(frames[75]![0]!.payload).isKeyframe).toBe(true);
    const audio = of('audio');
    expect(audio).toHaveLength(551); // 0..11 s every 20 ms; the clip's 251 packets loop
    audio.forEach((p, i) => {
      expect(p.header.timestamp).toBe(i * 960);
      expect(p.header.sequenceNumber).toBe(i);
      expect(p.header.marker).toBe(i === 0);
    });
    expect(audio[251]!.payload.equals(clip.audio.packets[0]!)).toBe(true);
  });

  it('wraps sequence numbers at 65535 and timestamps at 2^32, from the origins given', () => {
    const { player, ticker, of } = play({
      origin: { audio: { sequenceNumber: 65534, timestamp: 4_294_967_000 }, video: { sequenceNumber: 65535, timestamp: 4_294_966_000 } },
      firstPictureId: 0x7ffe,
    });
    player.start();
    ticker.advance(70);
    player.stop();
    expect(of('audio').map((p) => p.header.sequenceNumber)).toEqual([65534, 65535, 0, 1]);
    expect(of('audio').map((p) => p.header.timestamp)).toEqual([4_294_967_000, 664, 1624, 2584]);
    const video = framesOf(of('video'));
    expect(video.map((f) => f[0]!.header.timestamp)).toEqual([4_294_966_000, 4704]);
    expect(of('video')[0]!.header.sequenceNumber).toBe(65535);
    expect(of('video')[1]!.header.sequenceNumber).toBe(0);
    expect(video.map((f) => Vp8RtpPayload.deSerialize(f[0]!.payload).pictureId)).toEqual([0x7ffe, 0x7fff]);
  });

  it('answers requestKeyframe with the next keyframe of the clip, timestamps running on', () => {
    const { player, ticker, of } = play();
    player.start();
    ticker.advance(200); // frames 0..3 sent
    expect(framesOf(of('video'))).toHaveLength(4);
    player.requestKeyframe();
    ticker.advance(70);
    const frames = framesOf(of('video'));
    expect(frames).toHaveLength(5);
    const next = frames[4]!;
    expect(Vp8RtpPayload.deSerialize(next[0]!.payload).isKeyframe).toBe(true);
    expect(frameData(next).equals(clip.video.frames[15]!.data)).toBe(true);
    expect(next[0]!.header.timestamp).toBe(4 * 6000);
    ticker.advance(70);
    expect(frameData(framesOf(of('video'))[5]!).equals(clip.video.frames[16]!.data)).toBe(true); // and on from there
    player.stop();
  });

  it('pauses a kind without a gap in sequence numbers; video resumes on a keyframe, audio with the marker', () => {
    const { player, ticker, of } = play();
    player.start();
    ticker.advance(100);
    const audioBefore = of('audio').length;
    const videoBefore = of('video').length;
    player.setPaused('audio', true);
    player.setPaused('video', true);
    expect(player.isPaused('audio')).toBe(true);
    ticker.advance(1000);
    expect(of('audio')).toHaveLength(audioBefore);
    expect(of('video')).toHaveLength(videoBefore);
    player.setPaused('audio', false);
    player.setPaused('video', false);
    ticker.advance(40); // to 1140 ms: audio due at 1120 and 1140, video at 1133
    const audio = of('audio');
    const resumed = audio[audioBefore]!;
    expect(resumed.header.sequenceNumber).toBe(audio[audioBefore - 1]!.header.sequenceNumber + 1);
    expect(resumed.header.timestamp).toBe(audio[audioBefore - 1]!.header.timestamp + 51 * 960); // 100 ms -> 1120 ms
    expect(resumed.header.marker).toBe(true);
    expect(audio[audioBefore + 1]?.header.marker ?? false).toBe(false);
    const video = of('video');
    const back = video[videoBefore]!;
    expect(back.header.sequenceNumber).toBe(video[videoBefore - 1]!.header.sequenceNumber + 1);
    expect(back.header.timestamp).toBe(video[videoBefore - 1]!.header.timestamp + 16 * 6000); // timeline frame 1 -> 17
    expect(Vp8RtpPayload.deSerialize(back.payload).isKeyframe).toBe(true);
    player.stop();
  });

  it('plays a kind silently until its stream is named, then starts it on a keyframe', () => {
    const ticker = new FakeTicker();
    const sent: Sent[] = [];
    const player = new ClipPlayer(clip, rtp, (kind, packet) => sent.push({ kind, packet }), { ticker, audio: streams.audio });
    player.start();
    ticker.advance(200);
    expect(sent.every((s) => s.kind === 'audio')).toBe(true);
    player.setStream('video', { ssrc: 5, payloadType: 100 });
    ticker.advance(70); // timeline frame 4 is due at 266.7 ms
    const video = sent.filter((s) => s.kind === 'video').map((s) => s.packet);
    expect(video[0]!.header).toMatchObject({ ssrc: 5, payloadType: 100, sequenceNumber: 0, timestamp: 4 * 6000 });
    expect(Vp8RtpPayload.deSerialize(video[0]!.payload).isKeyframe).toBe(true);
    player.stop();
  });

  it('skips frames after a stall instead of sending them in a burst', () => {
    const { player, ticker, of } = play({ maxLagMs: 100 });
    player.start();
    ticker.advance(100);
    const audioBefore = of('audio').length;
    ticker.time += 2000; // the process stalled
    ticker.advance(10);
    expect(of('audio').length - audioBefore).toBeLessThanOrEqual(6); // only frames at most 100 ms late
    const last = framesOf(of('video')).at(-1)!;
    expect(Vp8RtpPayload.deSerialize(last[0]!.payload).isKeyframe).toBe(true);
    player.stop();
  });

  it('stop cancels the ticker and sends nothing more; start after stop throws', () => {
    const { player, ticker, sent } = play();
    player.start();
    player.start(); // again: no second timer
    expect(ticker.timers.size).toBe(1);
    expect(player.playing).toBe(true);
    player.stop();
    expect(ticker.timers.size).toBe(0);
    expect(player.playing).toBe(false);
    const count = sent.length;
    ticker.advance(1000);
    expect(sent).toHaveLength(count);
    expect(() => player.start()).toThrow('ClipPlayer: stopped');
    player.stop(); // twice: fine
  });

  it('times video frames by their pts: a lone frame lasts one time-base unit, pts that do not increase are refused', () => {
    const key = clip.video.frames[0]!;
    const header = { ...clip.video.header, timebase: { num: 1, den: 10 } };
    const ticker = new FakeTicker();
    const sent: RtpPacket[] = [];
    const lone: Clip = { video: { header, frames: [key] }, audio: { ...clip.audio, packets: [clip.audio.packets[0]!] } };
    const player = new ClipPlayer(
      lone,
      rtp,
      (kind, p) => {
        if (kind === 'video' && p.header.marker) sent.push(p);
      },
      { ...streams, ticker },
    );
    player.start();
    ticker.advance(300);
    player.stop();
    expect(sent.map((p) => p.header.timestamp)).toEqual([0, 9000, 18000, 27000]); // 90 kHz / 10 fps
    const stuck: Clip = { ...lone, video: { header, frames: [key, { ...key, pts: 0 }] } };
    expect(() => new ClipPlayer(stuck, rtp, () => undefined)).toThrow('clip video: frame 1 pts does not increase');
  });

  it('stop from inside the packet callback ends the frame being sent', () => {
    const ticker = new FakeTicker();
    let count = 0;
    const player = new ClipPlayer(
      clip,
      rtp,
      () => {
        count++;
        player.stop();
      },
      { ...streams, ticker },
    );
    player.start();
    expect(count).toBe(1);
    expect(ticker.timers.size).toBe(0);
  });
});
