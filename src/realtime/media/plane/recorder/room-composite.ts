// The composite of one meeting: its tracks decoded, its picture drawn as the UI kits lay it out,
// its voices mixed. Outputs take it tick by tick (a recording writes it to a file; a livestream
// would package it): each tick brings the real time, the tick's sound (the mix, and each track's
// own), and pictures drawn on demand at the size an output asks for. The composite decodes only
// while some output takes it (a paused recording takes nothing), and ends its decoders with its
// last output.
import type { RoomScene, SceneTile } from '../../media-types.js';
import type { Producer } from '../producer.js';
import { glyphAtlas, renderText, type TextMask } from './glyphs.js';
import { layoutTiles } from './layout.js';
import { evenFloor, Picture, yuvOf, type Frame, type Rect, type Rgb } from './picture.js';
import { AudioDecoder, SAMPLE_RATE, VideoDecoder, type DecoderContext } from './track-decoders.js';
import { trackCodec } from './track-tap.js';

/** Pictures per second of a composite. */
export const FRAME_RATE = 25;
/** What a camera is decoded to (squeezed to it; the tile is drawn with the picture's own aspect). */
const CAMERA_SIZE = { width: 640, height: 360 };
/** What a screen share is decoded to: it is shown large. */
const SCREEN_SIZE = { width: 1280, height: 720 };

const BACKGROUND = yuvOf({ r: 20, g: 20, b: 20 });
const TILE = yuvOf({ r: 44, g: 44, b: 46 });
const SCREEN_BACKDROP = yuvOf({ r: 0, g: 0, b: 0 });
const WHITE = yuvOf({ r: 255, g: 255, b: 255 });
const LABEL_BACKDROP = yuvOf({ r: 0, g: 0, b: 0 });
/** Avatar colours, one per name (as the kits colour a participant without video). */
const AVATAR_COLOURS: Rgb[] = [
  { r: 33, g: 96, b: 253 },
  { r: 124, g: 58, b: 237 },
  { r: 14, g: 165, b: 233 },
  { r: 16, g: 185, b: 129 },
  { r: 245, g: 158, b: 11 },
  { r: 239, g: 68, b: 68 },
  { r: 236, g: 72, b: 153 },
  { r: 20, g: 184, b: 166 },
];

/** What an output takes of the composite on each tick. */
export interface CompositeTick {
  /** Real ms (monotonic). */
  now: number;
  /** Who is in the meeting and what they show. */
  scene: RoomScene;
  /** Samples (per channel) of sound this tick carries. */
  samples: number;
  /** The tick's sound, all voices mixed: 16-bit stereo at 48 kHz. */
  mix(): Buffer;
  /** One track's sound of this tick (same format), when it is playing. */
  sound(producerId: string): Buffer | undefined;
  /** The meeting's picture at this size (drawn once per size per tick). */
  picture(width: number, height: number): Picture;
  /** One track's latest picture (a camera or screen share), with its own aspect. */
  frame(producerId: string): { frame: Frame; aspect: number } | undefined;
}

export interface CompositeOutput {
  /** Whether it takes the room now (a paused recording does not). */
  readonly active: boolean;
  tick(t: CompositeTick): void;
}

/** A clock and a repeating timer (real time, or driven by a test). */
export interface CompositeTicker {
  every(ms: number, fn: () => void): () => void;
  now(): number;
}

export interface CompositeContext extends DecoderContext {
  /** A published track of the plane, by producer id. */
  producer(id: string): Producer | undefined;
  ticker: CompositeTicker;
}

type Decoder = VideoDecoder | AudioDecoder;

export class RoomComposite {
  private scene: RoomScene;
  private readonly outputs = new Set<CompositeOutput>();
  private readonly decoders = new Map<string, Decoder>();
  private stopTicking: (() => void) | undefined;
  private lastTick = 0;
  /** Fractional samples carried from one tick to the next, so that ticks add up to real time exactly. */
  private sampleDebt = 0;
  /** Per tile key: its name tile and label, drawn once per size and name. */
  private readonly nameTiles = new Map<string, { key: string; picture: Picture }>();
  private readonly labels = new Map<string, TextMask>();

  constructor(
    scene: RoomScene,
    private readonly ctx: CompositeContext,
  ) {
    this.scene = scene;
  }

  get meetingId(): string {
    return this.scene.meetingId;
  }

  get isEmpty(): boolean {
    return this.outputs.size === 0;
  }

  /** How many decoders run now (pictures and sound). */
  get decoding(): number {
    return this.decoders.size;
  }

  /** What each track decoded so far: pictures of a camera or screen share, samples of a voice. */
  trackStatus(): { producerId: string; kind: 'video' | 'audio'; decoded: number }[] {
    return [...this.decoders].map(([producerId, d]) => ({ producerId, kind: d instanceof VideoDecoder ? 'video' : 'audio', decoded: d.decoded }));
  }

  /** Who is in the meeting and what they show changed. */
  setScene(scene: RoomScene): void {
    this.scene = scene;
    this.reconcile();
  }

  attach(output: CompositeOutput): void {
    this.outputs.add(output);
    this.reconcile();
  }

  detach(output: CompositeOutput): void {
    this.outputs.delete(output);
    this.reconcile();
  }

  /** An output was paused or resumed: the composite takes the tracks only while one is active. */
  outputChanged(): void {
    this.reconcile();
  }

  close(): void {
    this.outputs.clear();
    this.reconcile();
  }

  /** What runs is what the scene needs while an output is active: decoders, and the ticking. */
  private reconcile(): void {
    const active = [...this.outputs].some((o) => o.active);
    const wanted = new Map<string, 'camera' | 'screen' | 'audio'>();
    if (active)
      for (const t of this.scene.tiles) {
        if (t.camera) wanted.set(t.camera, 'camera');
        if (t.screen) wanted.set(t.screen, 'screen');
        if (t.microphone) wanted.set(t.microphone, 'audio');
        if (t.screenAudio) wanted.set(t.screenAudio, 'audio');
      }
    for (const [id, decoder] of [...this.decoders])
      if (!wanted.has(id)) {
        decoder.close();
        this.decoders.delete(id);
      }
    for (const [id, role] of wanted) {
      if (this.decoders.has(id)) continue;
      const decoder = this.decoderFor(id, role);
      if (decoder) this.decoders.set(id, decoder);
    }
    if (this.outputs.size > 0 && !this.stopTicking) {
      this.lastTick = this.ctx.ticker.now();
      this.sampleDebt = 0;
      this.stopTicking = this.ctx.ticker.every(1000 / FRAME_RATE, () => this.tick());
    } else if (this.outputs.size === 0 && this.stopTicking) {
      this.stopTicking();
      this.stopTicking = undefined;
    }
  }

  private decoderFor(id: string, role: 'camera' | 'screen' | 'audio'): Decoder | undefined {
    const producer = this.ctx.producer(id);
    if (!producer || producer.isClosed) return undefined;
    const codec = trackCodec(producer.info.mimeType);
    if (role === 'audio') return codec === 'OPUS' ? new AudioDecoder(producer, this.ctx) : undefined;
    if (codec !== 'VP8' && codec !== 'VP9') {
      this.ctx.logger.warn({ mimeType: producer.info.mimeType }, 'recorder: a video track in a codec it cannot decode is shown as a name tile');
      return undefined;
    }
    const size = role === 'screen' ? SCREEN_SIZE : CAMERA_SIZE;
    return new VideoDecoder(producer, codec, size.width, size.height, this.ctx);
  }

  /** One tick of real time: its sound taken from every voice, then each output takes what it needs. */
  tick(): void {
    const now = this.ctx.ticker.now();
    const exact = ((now - this.lastTick) * SAMPLE_RATE) / 1000 + this.sampleDebt;
    const samples = Math.max(0, Math.floor(exact));
    this.sampleDebt = exact - samples;
    this.lastTick = now;
    const tick = this.tickOf(now, samples);
    for (const output of [...this.outputs]) {
      try {
        output.tick(tick);
      } catch (err) {
        this.ctx.logger.error({ err: (err as Error).stack }, 'recorder: an output failed to take a tick');
      }
    }
  }

  /** The room as it stands now, with no sound (what a recording that stops between ticks ends on). */
  snapshot(): CompositeTick {
    return this.tickOf(this.ctx.ticker.now(), 0);
  }

  private tickOf(now: number, samples: number): CompositeTick {
    const sounds = new Map<string, Buffer>();
    if (samples > 0)
      for (const [id, d] of this.decoders) {
        if (!(d instanceof AudioDecoder)) continue;
        const sum = new Int32Array(samples * 2);
        d.mixInto(sum, samples);
        sounds.set(id, clamp16(sum));
      }
    let mix: Buffer | undefined;
    const pictures = new Map<string, Picture>();
    const tick: CompositeTick = {
      now,
      scene: this.scene,
      samples,
      mix: () => (mix ??= sounds.size === 0 ? Buffer.alloc(samples * 4) : mixed([...sounds.values()], samples)),
      sound: (id) => sounds.get(id),
      picture: (width, height) => {
        const key = `${width}x${height}`;
        let p = pictures.get(key);
        if (!p) pictures.set(key, (p = this.draw(width, height)));
        return p;
      },
      frame: (id) => {
        const d = this.decoders.get(id);
        return d instanceof VideoDecoder && d.latest ? { frame: d.latest, aspect: d.aspect } : undefined;
      },
    };
    return tick;
  }

  /** The meeting's picture at a size: every tile where the layout puts it. */
  draw(width: number, height: number): Picture {
    const picture = new Picture(width, height);
    picture.fill({ x: 0, y: 0, w: width, h: height }, BACKGROUND);
    const tiles = new Map(this.scene.tiles.map((t) => [t.key, t]));
    const screens = this.scene.tiles.filter((t) => t.screen).map((t) => `${t.key}\u0000screen`);
    const rects = layoutTiles(width, height, { people: [...tiles.keys()], screens, pinned: this.scene.pinned });
    for (const [key, rect] of rects) {
      const screen = key.endsWith('\u0000screen');
      const tile = tiles.get(screen ? key.slice(0, -'\u0000screen'.length) : key);
      if (!tile) continue;
      if (screen) this.drawScreen(picture, tile, rect);
      else this.drawPerson(picture, tile, rect);
    }
    return picture;
  }

  private drawPerson(picture: Picture, tile: SceneTile, rect: Rect): void {
    const video = tile.camera ? this.decoders.get(tile.camera) : undefined;
    if (video instanceof VideoDecoder && video.latest) {
      picture.drawFrame(video.latest, rect, 'cover', video.aspect);
    } else {
      picture.blit(this.nameTile(tile, rect.w, rect.h), rect.x, rect.y);
    }
    this.drawLabel(picture, tile.name, rect);
  }

  private drawScreen(picture: Picture, tile: SceneTile, rect: Rect): void {
    picture.fill(rect, SCREEN_BACKDROP);
    const video = tile.screen ? this.decoders.get(tile.screen) : undefined;
    if (video instanceof VideoDecoder && video.latest) picture.drawFrame(video.latest, rect, 'contain', video.aspect);
    this.drawLabel(picture, `${tile.name} (screen)`, rect);
  }

  /** A participant without video: a tile with their initials in a disc of their colour. */
  private nameTile(tile: SceneTile, w: number, h: number): Picture {
    const cacheKey = `${w}x${h}\u0000${tile.name}`;
    const cached = this.nameTiles.get(tile.key);
    if (cached?.key === cacheKey) return cached.picture;
    const picture = new Picture(evenFloor(w), evenFloor(h));
    picture.fill({ x: 0, y: 0, w, h }, TILE);
    const radius = Math.min(w, h) * 0.2;
    picture.disc(w / 2, h / 2, radius, yuvOf(AVATAR_COLOURS[hash(tile.name) % AVATAR_COLOURS.length]!));
    const initials = renderText(glyphAtlas(), initialsOf(tile.name), Math.max(8, Math.round(radius * 0.95)));
    picture.drawMask(initials, Math.round(w / 2 - initials.width / 2), Math.round(h / 2 - initials.height / 2), WHITE);
    this.nameTiles.set(tile.key, { key: cacheKey, picture });
    return picture;
  }

  /** The name at the tile's bottom left, on a darkened band. */
  private drawLabel(picture: Picture, name: string, rect: Rect): void {
    const height = Math.max(10, Math.min(26, Math.round(rect.h * 0.075)));
    const pad = Math.round(height / 3);
    const key = `${height}\u0000${rect.w}\u0000${name}`;
    let mask = this.labels.get(key);
    if (!mask) {
      mask = renderText(glyphAtlas(), name, height, Math.max(1, rect.w - 4 * pad));
      if (this.labels.size > 500) this.labels.clear();
      this.labels.set(key, mask);
    }
    const band = { x: rect.x + pad, y: rect.y + rect.h - height - 3 * pad, w: mask.width + 2 * pad, h: height + 2 * pad };
    picture.shade(band, LABEL_BACKDROP, 0.55);
    picture.drawMask(mask, band.x + pad, band.y + pad, WHITE);
  }
}

/** Sums of 16-bit samples back to 16 bits, clipped. */
function clamp16(sum: Int32Array): Buffer {
  const out = Buffer.alloc(sum.length * 2);
  for (let i = 0; i < sum.length; i++) out.writeInt16LE(Math.max(-32768, Math.min(32767, sum[i]!)), i * 2);
  return out;
}

/** The voices of a tick (16-bit stereo, `samples` per channel each) summed into one, clipped to 16 bits. */
export function mixed(sounds: Buffer[], samples: number): Buffer {
  // Stryker disable next-line ConditionalExpression: a shortcut: one voice summed on its own gives the same samples.
  if (sounds.length === 1) return sounds[0]!;
  const sum = new Int32Array(samples * 2);
  for (const s of sounds) for (let i = 0; i < sum.length; i++) sum[i]! += s.readInt16LE(i * 2);
  return clamp16(sum);
}

/** Up to two initials of a name, upper case ("Ada Lovelace" → "AL"); "?" for none. */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  const letters = (words.length > 1 ? [words[0]!, words.at(-1)!] : words).map((w) => [...w][0]!.toUpperCase());
  return letters.join('') || '?';
}

function hash(text: string): number {
  let h = 0;
  for (const c of text) h = (h * 31 + c.codePointAt(0)!) >>> 0;
  return h;
}
