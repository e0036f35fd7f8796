// One ffmpeg fed raw pictures and sound on a recording's timeline: the part every recorded file
// shares, whether it holds the composite of the room or one participant's track.
//
// Its input is Matroska: an optional raw video track (I420) and a sound track (16-bit stereo at
// 48 kHz), each frame stamped with its place on the timeline. Each time the timeline moves on, the
// encoder gets what is there now: a picture covering the span since the last one (when it keeps
// up; the last one holds otherwise) and the sound since. A span the timeline jumps (a manual clock
// advanced) is one picture held and a gap in the sound, which ffmpeg fills with silence
// (aresample's async mode, in the arguments of every output), so a jump of an hour costs one
// picture and the encoding of an hour of silence, not an hour of pictures.
import { FfmpegProcess } from './ffmpeg-process.js';
import { MatroskaWriter, type MatroskaTrack } from './matroska.js';
import { FRAME_RATE } from './room-composite.js';
import { BYTES_PER_SAMPLE, CHANNELS, SAMPLE_RATE } from './track-decoders.js';

/** A gap of the sound longer than this is left for ffmpeg to fill with silence (ms). */
const FILL_GAP_MS = 1_000;
/** The most sound kept while the timeline stands still, to be heard where it moves on (ms). */
const MAX_HELD_SOUND_MS = 30_000;
/** The sound may run ahead of or behind the timeline by this much before it is cut or padded (ms). */
const SOUND_SLACK_MS = 100;
/** The most an encoder may take to finish once its input ended (real ms), beyond the recording's own length / 20. */
const FINISH_LIMIT_MS = 60_000;

/** What every output of an encoder does to the sound: gaps filled with silence, from the timeline's start. */
export const FILL_SILENCE = ['-af', 'aresample=async=1:first_pts=0'];

export interface TimelineEncoderOptions {
  ffmpeg: string;
  /** The ffmpeg arguments after its input (the input is `-f matroska -i pipe:0`). */
  outputArgs: string[];
  /** The raw pictures' size, or undefined for sound only. */
  video?: { width: number; height: number };
  /** Told once if the encoder ends before it was asked to. */
  onFailed(reason: string): void;
}

export class TimelineEncoder {
  private readonly process: FfmpegProcess;
  private readonly writer: MatroskaWriter;
  private readonly videoTrack: number | undefined;
  private readonly audioTrack: number;
  /** Where the pictures have got to on the timeline (ms), and the sound (samples per channel). */
  private videoMs = -1;
  private soundSamples = 0;
  /** Where the sound actually written ends (samples): short of soundSamples after a jump, until more comes. */
  private soundWritten = 0;
  /** The timeline's position when it was last written: the next picture covers from there. */
  private spanStart = -1;
  /** Sound heard while the timeline stood still (a manual clock between moves): heard where it moves on. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private ending = false;

  constructor(private readonly options: TimelineEncoderOptions) {
    const tracks: MatroskaTrack[] = [];
    if (options.video)
      tracks.push({
        kind: 'video',
        codecId: 'V_UNCOMPRESSED',
        width: options.video.width,
        height: options.video.height,
        colourSpace: 'I420',
        // What the last picture lasts: one frame (the ones before last until the next).
        defaultDurationMs: 1000 / FRAME_RATE,
      });
    tracks.push({ kind: 'audio', codecId: 'A_PCM/INT/LIT', sampleRate: SAMPLE_RATE, channels: CHANNELS, bitDepth: 16 });
    this.videoTrack = options.video ? 1 : undefined;
    this.audioTrack = options.video ? 2 : 1;
    this.process = new FfmpegProcess(options.ffmpeg, ['-f', 'matroska', '-i', 'pipe:0', ...options.outputArgs]);
    this.writer = new MatroskaWriter(tracks, (b) => void this.process.write(b));
    void this.process.exited.then((exit) => {
      if (!this.ending) options.onFailed(`the encoder ended unexpectedly (${exit.code ?? exit.signal}): ${exit.stderr || 'no message'}`);
    });
  }

  /** Where the timeline has been written to (ms). */
  get writtenTo(): number {
    return Math.max(this.spanStart, this.videoMs + 1, Math.ceil((this.soundSamples * 1000) / SAMPLE_RATE));
  }

  /**
   * The timeline moved to `position` (ms): the picture of now (drawn on demand) covers the span since
   * the last position written, and `sound` is the sound heard meanwhile. A tick's picture is left
   * out while the encoder is behind (the one before holds); `always` writes it anyway (a jump of the
   * clock, whose span that picture is).
   */
  write(position: number, picture: () => Uint8Array, sound: Buffer, always = false): void {
    if (this.ending) return;
    this.advance(position, picture, sound, always);
  }

  private advance(position: number, picture: () => Uint8Array, sound: Buffer, always: boolean): void {
    if (position <= this.spanStart) return this.hold(sound);
    if (this.heldBytes > 0) {
      sound = Buffer.concat([...this.held, sound]);
      this.held = [];
      this.heldBytes = 0;
    }
    // A picture only when the encoder keeps up (or at the end): the one before holds meanwhile.
    if (this.videoTrack !== undefined && (always || this.process.writable || this.videoMs < 0))
      this.writePicture(Math.max(this.videoMs + 1, this.spanStart, 0), picture());
    this.writeSound(position, sound);
    this.spanStart = position;
  }

  /**
   * Ends the input at `end` (ms) of the timeline: the picture of now holds to it, silence fills what
   * sound is missing; resolves once ffmpeg has finished its files, rejects if it fails or hangs.
   */
  async finish(end: number, picture: () => Uint8Array): Promise<void> {
    if (this.ending) throw new Error('the encoder was already ended');
    const until = Math.max(end, this.writtenTo);
    this.advance(until, picture, Buffer.alloc(0), true);
    this.ending = true;
    // The last picture again, so that the video lasts to the end.
    const frameMs = Math.round(1000 / FRAME_RATE);
    if (this.videoTrack !== undefined && until - frameMs > this.videoMs) this.writePicture(until - frameMs, picture());
    // Sound to the end: silence written out, or, past a jump, a short one at the end for ffmpeg to fill up to.
    const endSamples = Math.max(Math.round((until * SAMPLE_RATE) / 1000), this.soundSamples);
    const tail = Math.round((20 * SAMPLE_RATE) / 1000);
    if (endSamples - this.soundWritten > (FILL_GAP_MS * SAMPLE_RATE) / 1000) this.soundSamples = endSamples - tail;
    else this.soundSamples = this.soundWritten;
    this.appendSound(Buffer.alloc((endSamples - this.soundSamples) * BYTES_PER_SAMPLE));
    this.process.end();
    const limit = FINISH_LIMIT_MS + until / 20;
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      this.process.exited,
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), limit);
      }),
    ]);
    clearTimeout(timer);
    if (exit === 'timeout') {
      this.process.kill();
      throw new Error(`the encoder did not finish within ${Math.round(limit / 1000)} s`);
    }
    if (exit.code !== 0) throw new Error(`the encoder failed (${exit.code ?? exit.signal}): ${exit.stderr || 'no message'}`);
  }

  /** Ends it now, whatever it was writing. */
  cancel(): void {
    this.ending = true;
    this.process.kill();
  }

  /** Resolves once its ffmpeg has exited. */
  get exited(): Promise<void> {
    return this.process.exited.then(() => undefined);
  }

  private writePicture(ms: number, data: Uint8Array): void {
    this.videoMs = ms;
    this.writer.frame(this.videoTrack!, ms, Buffer.from(data.buffer, data.byteOffset, data.byteLength), true);
  }

  /** Keeps sound heard while the timeline stands still (the most recent, up to a limit). */
  private hold(sound: Buffer): void {
    if (sound.length === 0) return;
    this.held.push(sound);
    this.heldBytes += sound.length;
    const max = (MAX_HELD_SOUND_MS * SAMPLE_RATE * BYTES_PER_SAMPLE) / 1000;
    while (this.heldBytes > max && this.held.length > 1) this.heldBytes -= this.held.shift()!.length;
  }

  /** The sound heard since the last write, at the sound's place, kept within the slack of the timeline's `position`. */
  private writeSound(position: number, sound: Buffer): void {
    const target = Math.round((position * SAMPLE_RATE) / 1000);
    const slack = (SOUND_SLACK_MS * SAMPLE_RATE) / 1000;
    const behind = target - this.soundSamples;
    const have = sound.length / BYTES_PER_SAMPLE;
    if (behind > (FILL_GAP_MS * SAMPLE_RATE) / 1000) {
      // A jump: the sound heard is at its start, and ffmpeg fills the rest of the gap with silence.
      const heard = Math.min(have, behind);
      this.appendSound(sound.subarray(0, heard * BYTES_PER_SAMPLE));
      this.soundSamples = target;
      return;
    } else if (behind - have > slack) {
      this.appendSound(Buffer.alloc((behind - have) * BYTES_PER_SAMPLE));
    }
    const room = target + slack - this.soundSamples;
    if (room <= 0) return;
    this.appendSound(have > room ? sound.subarray(0, room * BYTES_PER_SAMPLE) : sound);
  }

  private appendSound(pcm: Buffer): void {
    if (pcm.length === 0) return;
    this.writer.frame(this.audioTrack, (this.soundSamples * 1000) / SAMPLE_RATE, pcm, true);
    this.soundSamples += pcm.length / BYTES_PER_SAMPLE;
    this.soundWritten = this.soundSamples;
  }
}
