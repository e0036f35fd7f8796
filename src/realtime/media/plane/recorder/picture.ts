// Pictures in I420 (YUV 4:2:0, the layout the decoders give and the encoder takes): the canvas a
// composite is drawn on, and the few ways it is drawn — filled rectangles and discs, a video frame
// scaled into a tile (covering it, or fitting inside it), and text by its coverage. Pure and
// allocation-free on the per-frame path: a frame is drawn into one reused buffer.

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface Yuv {
  y: number;
  u: number;
  v: number;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** BT.601, limited range: what the encoders assume of yuv420p. */
export function yuvOf({ r, g, b }: Rgb): Yuv {
  return {
    y: Math.round(16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255),
    u: Math.round(128 + (-37.797 * r - 74.203 * g + 112 * b) / 255),
    v: Math.round(128 + (112 * r - 93.786 * g - 18.214 * b) / 255),
  };
}

/** The bytes of a w × h I420 picture. */
export function i420Bytes(w: number, h: number): number {
  return w * h + 2 * (w / 2) * (h / 2);
}

/** A video frame as a decoder gives it: I420 of `width` × `height`. */
export interface Frame {
  width: number;
  height: number;
  data: Uint8Array;
}

export class Picture implements Frame {
  readonly data: Uint8Array;
  readonly uOffset: number;
  readonly vOffset: number;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    if (width % 2 !== 0 || height % 2 !== 0) throw new Error(`An I420 picture has an even size, not ${width}x${height}`);
    this.data = new Uint8Array(i420Bytes(width, height));
    this.uOffset = width * height;
    this.vOffset = this.uOffset + (width / 2) * (height / 2);
  }

  fill(rect: Rect, c: Yuv): void {
    const r = this.clip(rect);
    if (!r) return;
    for (let y = r.y; y < r.y + r.h; y++) this.data.fill(c.y, y * this.width + r.x, y * this.width + r.x + r.w);
    const cw = this.width / 2;
    for (let y = r.y >> 1; y < (r.y + r.h + 1) >> 1; y++) {
      this.data.fill(c.u, this.uOffset + y * cw + (r.x >> 1), this.uOffset + y * cw + ((r.x + r.w + 1) >> 1));
      this.data.fill(c.v, this.vOffset + y * cw + (r.x >> 1), this.vOffset + y * cw + ((r.x + r.w + 1) >> 1));
    }
  }

  /** Copies a whole picture (a tile drawn once) with its top left at (x, y); both even. */
  blit(src: Picture, x: number, y: number): void {
    const r = this.clip({ x, y, w: src.width, h: src.height });
    if (!r) return;
    const dx = r.x - x;
    const dy = r.y - y;
    for (let row = 0; row < r.h; row++) {
      const from = (dy + row) * src.width + dx;
      this.data.set(src.data.subarray(from, from + r.w), (r.y + row) * this.width + r.x);
    }
    const cw = this.width / 2;
    const scw = src.width / 2;
    for (let row = 0; row < r.h / 2; row++) {
      const from = (dy / 2 + row) * scw + dx / 2;
      const to = (r.y / 2 + row) * cw + r.x / 2;
      this.data.set(src.data.subarray(src.uOffset + from, src.uOffset + from + r.w / 2), this.uOffset + to);
      this.data.set(src.data.subarray(src.vOffset + from, src.vOffset + from + r.w / 2), this.vOffset + to);
    }
  }

  /** A filled disc, its edge smoothed over a pixel. */
  disc(cx: number, cy: number, radius: number, c: Yuv): void {
    const x0 = Math.max(0, Math.floor(cx - radius));
    const x1 = Math.min(this.width, Math.ceil(cx + radius));
    const y0 = Math.max(0, Math.floor(cy - radius));
    const y1 = Math.min(this.height, Math.ceil(cy + radius));
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        const a = Math.max(0, Math.min(1, radius - d + 0.5));
        if (a > 0) this.blendPixel(x, y, c, a);
      }
  }

  /**
   * Draws `src` scaled into `dst`: `cover` fills the rectangle and crops what overflows (a camera
   * tile), `contain` fits all of it and leaves the rest as it was (a screen share). `aspect` is the
   * picture's own width / height when the frame was squeezed to its size by the decoder.
   * Nearest-neighbour sampling: one read per pixel.
   */
  drawFrame(src: Frame, dst: Rect, mode: 'cover' | 'contain', aspect = src.width / src.height): void {
    const target = this.clip(dst);
    if (!target || src.width === 0 || src.height === 0) return;
    // The part of the source shown, in the source's (squeezed) pixels, and where it lands.
    const dstAspect = dst.w / dst.h;
    let sx = 0;
    let sy = 0;
    let sw = src.width;
    let sh = src.height;
    let out = { ...dst };
    if (mode === 'cover') {
      if (aspect > dstAspect) {
        sw = src.width * (dstAspect / aspect);
        sx = (src.width - sw) / 2;
      } else {
        sh = src.height * (aspect / dstAspect);
        sy = (src.height - sh) / 2;
      }
    } else if (aspect > dstAspect) {
      const h = evenFloor(dst.w / aspect);
      out = { x: dst.x, y: dst.y + evenFloor((dst.h - h) / 2), w: dst.w, h };
    } else {
      const w = evenFloor(dst.h * aspect);
      out = { x: dst.x + evenFloor((dst.w - w) / 2), y: dst.y, w, h: dst.h };
    }
    this.scaleInto(src, sx, sy, sw, sh, out);
  }

  /** Text (its coverage mask) in colour `c` at (x, y), `opacity` 0..1. */
  drawMask(mask: { width: number; height: number; alpha: Uint8Array }, x: number, y: number, c: Yuv, opacity = 1): void {
    const x0 = Math.max(0, x);
    const y0 = Math.max(0, y);
    const x1 = Math.min(this.width, x + mask.width);
    const y1 = Math.min(this.height, y + mask.height);
    for (let py = y0; py < y1; py++)
      for (let px = x0; px < x1; px++) {
        const a = mask.alpha[(py - y) * mask.width + (px - x)]!;
        if (a > 0) this.blendPixel(px, py, c, (a / 255) * opacity);
      }
  }

  /** A rectangle of colour `c` laid over what is there at `opacity` (a label's backdrop). */
  shade(rect: Rect, c: Yuv, opacity: number): void {
    const r = this.clip(rect);
    if (!r) return;
    const w = this.width;
    const cw = w / 2;
    for (let y = r.y; y < r.y + r.h; y++)
      for (let x = r.x; x < r.x + r.w; x++) {
        const i = y * w + x;
        this.data[i] = Math.round(this.data[i]! + (c.y - this.data[i]!) * opacity);
      }
    for (let y = r.y >> 1; y < (r.y + r.h) >> 1; y++)
      for (let x = r.x >> 1; x < (r.x + r.w) >> 1; x++) {
        const u = this.uOffset + y * cw + x;
        const v = this.vOffset + y * cw + x;
        this.data[u] = Math.round(this.data[u]! + (c.u - this.data[u]!) * opacity);
        this.data[v] = Math.round(this.data[v]! + (c.v - this.data[v]!) * opacity);
      }
  }

  private blendPixel(x: number, y: number, c: Yuv, a: number): void {
    const i = y * this.width + x;
    this.data[i] = Math.round(this.data[i]! + (c.y - this.data[i]!) * a);
    // Chroma is shared by 2 × 2 pixels: each pixel moves it a quarter of the way.
    const ci = (y >> 1) * (this.width / 2) + (x >> 1);
    const q = a / 4;
    this.data[this.uOffset + ci] = Math.round(this.data[this.uOffset + ci]! + (c.u - this.data[this.uOffset + ci]!) * q);
    this.data[this.vOffset + ci] = Math.round(this.data[this.vOffset + ci]! + (c.v - this.data[this.vOffset + ci]!) * q);
  }

  /** Copies the source region (sx, sy, sw, sh) onto `out`, nearest neighbour, plane by plane. */
  private scaleInto(src: Frame, sx: number, sy: number, sw: number, sh: number, out: Rect): void {
    const r = this.clip(out);
    if (!r) return;
    const s = src.data;
    const sW = src.width;
    const sH = src.height;
    const d = this.data;
    const W = this.width;
    // Luma.
    const xs = new Int32Array(r.w);
    for (let i = 0; i < r.w; i++) xs[i] = Math.min(sW - 1, Math.floor(sx + ((r.x - out.x + i + 0.5) * sw) / out.w));
    for (let y = 0; y < r.h; y++) {
      const syy = Math.min(sH - 1, Math.floor(sy + ((r.y - out.y + y + 0.5) * sh) / out.h));
      const srow = syy * sW;
      const drow = (r.y + y) * W + r.x;
      for (let i = 0; i < r.w; i++) d[drow + i] = s[srow + xs[i]!]!;
    }
    // Chroma: half the size on both axes.
    const sCW = sW / 2;
    const sCH = sH / 2;
    const sU = sW * sH;
    const sV = sU + sCW * sCH;
    const cx0 = r.x >> 1;
    const cy0 = r.y >> 1;
    const cw = r.w >> 1;
    const ch = r.h >> 1;
    const CW = W / 2;
    const cxs = new Int32Array(cw);
    for (let i = 0; i < cw; i++) cxs[i] = Math.min(sCW - 1, Math.floor(sx / 2 + ((cx0 - out.x / 2 + i + 0.5) * (sw / 2)) / (out.w / 2)));
    for (let y = 0; y < ch; y++) {
      const syy = Math.min(sCH - 1, Math.floor(sy / 2 + ((cy0 - out.y / 2 + y + 0.5) * (sh / 2)) / (out.h / 2)));
      const du = this.uOffset + (cy0 + y) * CW + cx0;
      const dv = this.vOffset + (cy0 + y) * CW + cx0;
      const su = sU + syy * sCW;
      const sv = sV + syy * sCW;
      for (let i = 0; i < cw; i++) {
        d[du + i] = s[su + cxs[i]!]!;
        d[dv + i] = s[sv + cxs[i]!]!;
      }
    }
  }

  /** The part of a rectangle inside the picture, aligned to even pixels (chroma's grid); null when empty. */
  private clip(r: Rect): Rect | null {
    const x = Math.max(0, evenFloor(r.x));
    const y = Math.max(0, evenFloor(r.y));
    const x1 = Math.min(this.width, evenFloor(r.x + r.w));
    const y1 = Math.min(this.height, evenFloor(r.y + r.h));
    return x1 > x && y1 > y ? { x, y, w: x1 - x, h: y1 - y } : null;
  }
}

export function evenFloor(n: number): number {
  return Math.floor(n / 2) * 2;
}
