// The letters the recorder writes names with: the atlas scripts/make-glyphs.py renders once from
// DejaVu Sans (fixtures/media/glyphs.bin), scaled here to the size a tile needs. A character the
// atlas lacks is drawn as U+FFFD. Pure but for loading the atlas.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { PACKAGE_ROOT } from '../../../../core/package-info.js';

export const GLYPHS_FILE = path.join(PACKAGE_ROOT, 'fixtures', 'media', 'glyphs.bin');

interface Glyph {
  /** Advance, px at the atlas size. */
  advance: number;
  x: number;
  y: number;
  w: number;
  h: number;
  bitmap: Uint8Array;
}

export interface GlyphAtlas {
  /** The pixel size the glyphs were rendered at; ascent + descent is a line. */
  size: number;
  ascent: number;
  descent: number;
  glyphs: Map<number, Glyph>;
}

/** A line of text as coverage (0..255) over a width × height box. */
export interface TextMask {
  width: number;
  height: number;
  alpha: Uint8Array;
}

const REPLACEMENT = 0xfffd;

/** Reads the atlas's bytes (deflated, as make-glyphs.py writes them). */
export function parseGlyphAtlas(deflated: Buffer): GlyphAtlas {
  const b = inflateSync(deflated);
  if (b.toString('latin1', 0, 4) !== 'GLYF' || b.readUInt16LE(4) !== 1) throw new Error('glyphs.bin: not a version 1 glyph atlas');
  const size = b.readUInt16LE(6);
  const ascent = b.readUInt16LE(8);
  const descent = b.readUInt16LE(10);
  const count = b.readUInt32LE(12);
  const table = 16;
  const entry = 18;
  const bitmaps = table + count * entry;
  const glyphs = new Map<number, Glyph>();
  for (let i = 0; i < count; i++) {
    const o = table + i * entry;
    const w = b.readUInt16LE(o + 10);
    const h = b.readUInt16LE(o + 12);
    const at = bitmaps + b.readUInt32LE(o + 14);
    glyphs.set(b.readUInt32LE(o), {
      advance: b.readUInt16LE(o + 4) / 64,
      x: b.readInt16LE(o + 6),
      y: b.readInt16LE(o + 8),
      w,
      h,
      bitmap: b.subarray(at, at + w * h),
    });
  }
  return { size, ascent, descent, glyphs };
}

let atlas: GlyphAtlas | undefined;

/** The atlas, read on first use. */
export function glyphAtlas(): GlyphAtlas {
  atlas ??= parseGlyphAtlas(readFileSync(GLYPHS_FILE));
  return atlas;
}

/**
 * `text` on one line, its line `height` px tall (ascent + descent), no wider than `maxWidth`
 * (cut with an ellipsis). Coverage is sampled from the atlas with a box filter when shrinking and
 * bilinearly when growing.
 */
export function renderText(a: GlyphAtlas, text: string, height: number, maxWidth = Infinity): TextMask {
  const scale = height / (a.ascent + a.descent);
  const glyphOf = (cp: number) => a.glyphs.get(cp) ?? a.glyphs.get(REPLACEMENT)!;
  let chars = [...text].map((c) => c.codePointAt(0)!);
  const widthOf = (cps: number[]) => cps.reduce((w, cp) => w + glyphOf(cp).advance, 0) * scale;
  if (widthOf(chars) > maxWidth) {
    const ellipsis = 0x2026;
    while (chars.length > 0 && widthOf([...chars, ellipsis]) > maxWidth) chars = chars.slice(0, -1);
    chars = [...chars, ellipsis];
  }
  const width = Math.max(1, Math.ceil(widthOf(chars)));
  const alpha = new Uint8Array(width * height);
  let pen = 0;
  for (const cp of chars) {
    const g = glyphOf(cp);
    drawGlyph(alpha, width, height, g, pen + g.x * scale, g.y * scale, scale);
    pen += g.advance * scale;
  }
  return { width, height, alpha };
}

/** Adds one glyph's coverage, scaled, at (x, y) of the mask (the brighter of overlapping glyphs wins). */
function drawGlyph(out: Uint8Array, width: number, height: number, g: Glyph, x: number, y: number, scale: number): void {
  if (g.w === 0 || g.h === 0) return;
  const x0 = Math.max(0, Math.floor(x));
  const y0 = Math.max(0, Math.floor(y));
  const x1 = Math.min(width, Math.ceil(x + g.w * scale));
  const y1 = Math.min(height, Math.ceil(y + g.h * scale));
  const inv = 1 / scale;
  for (let oy = y0; oy < y1; oy++) {
    const sy0 = (oy - y) * inv;
    const sy1 = sy0 + inv;
    for (let ox = x0; ox < x1; ox++) {
      const sx0 = (ox - x) * inv;
      const v = scale < 1 ? boxSample(g, sx0, sy0, sx0 + inv, sy1) : bilinear(g, sx0 + inv / 2 - 0.5, sy0 + inv / 2 - 0.5);
      const i = oy * width + ox;
      if (v > out[i]!) out[i] = v;
    }
  }
}

function at(g: Glyph, x: number, y: number): number {
  return x < 0 || y < 0 || x >= g.w || y >= g.h ? 0 : g.bitmap[y * g.w + x]!;
}

function bilinear(g: Glyph, x: number, y: number): number {
  const fx = Math.floor(x);
  const fy = Math.floor(y);
  const dx = x - fx;
  const dy = y - fy;
  const top = at(g, fx, fy) * (1 - dx) + at(g, fx + 1, fy) * dx;
  const bottom = at(g, fx, fy + 1) * (1 - dx) + at(g, fx + 1, fy + 1) * dx;
  return Math.round(top * (1 - dy) + bottom * dy);
}

/** The mean coverage over a box of the glyph's pixels (whole pixels it touches). */
function boxSample(g: Glyph, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0;
  let n = 0;
  for (let y = Math.floor(y0); y < Math.ceil(y1); y++)
    for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
      sum += at(g, x, y);
      n += 1;
    }
  return n === 0 ? 0 : Math.round(sum / n);
}
