// Where each tile of the meeting goes in a composite, as the UI kits lay a meeting out: a grid of
// equal 16:9 tiles in join order; a screen share (or, without one, the pinned participants) large
// in the main area, with everyone else in a strip beside it (below it in a portrait picture).
// Pure: sizes in, rectangles out.
import { evenFloor, type Rect } from './picture.js';

export interface LayoutInput {
  /** The participants' tiles, in the order they joined. */
  people: readonly string[];
  /** The screen shares' tiles, in the order they started. */
  screens: readonly string[];
  /** Participants pinned for everyone (tile keys of `people`). */
  pinned: readonly string[];
}

const TILE_ASPECT = 16 / 9;
/** The main area's share of the picture when a screen share or a pin takes it. */
const MAIN_SHARE = 0.78;

/** The gap between tiles and around them: about 8 px in a 1280 × 720 picture. */
export function gapFor(width: number, height: number): number {
  return Math.max(2, evenFloor(Math.min(width, height) / 90));
}

/** Each tile's rectangle, by key; tiles that do not fit (a strip too short for everyone) are left out. */
export function layoutTiles(width: number, height: number, input: LayoutInput): Map<string, Rect> {
  const gap = gapFor(width, height);
  const area: Rect = { x: gap, y: gap, w: width - 2 * gap, h: height - 2 * gap };
  const pinned = input.people.filter((p) => input.pinned.includes(p));
  const main = input.screens.length > 0 ? input.screens : pinned;
  if (main.length === 0) return grid(area, input.people, gap);
  const rest = input.people.filter((p) => !main.includes(p));
  if (rest.length === 0) return grid(area, main, gap);
  const portrait = height > width;
  const mainArea: Rect = portrait ? { ...area, h: evenFloor(area.h * MAIN_SHARE) } : { ...area, w: evenFloor(area.w * MAIN_SHARE) };
  const strip: Rect = portrait
    ? { x: area.x, y: mainArea.y + mainArea.h + gap, w: area.w, h: area.h - mainArea.h - gap }
    : { x: mainArea.x + mainArea.w + gap, y: area.y, w: area.w - mainArea.w - gap, h: area.h };
  const out = grid(mainArea, main, gap);
  for (const [key, rect] of line(strip, rest, gap, portrait ? 'row' : 'column')) out.set(key, rect);
  return out;
}

/** Equal 16:9 tiles, as large as they can be, rows centred, the whole grid centred in the area. */
function grid(area: Rect, keys: readonly string[], gap: number): Map<string, Rect> {
  const out = new Map<string, Rect>();
  const n = keys.length;
  if (n === 0) return out;
  let best = { cols: 1, rows: n, w: 0, h: 0 };
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const w = Math.min((area.w - (cols - 1) * gap) / cols, ((area.h - (rows - 1) * gap) / rows) * TILE_ASPECT);
    if (w > best.w) best = { cols, rows, w, h: w / TILE_ASPECT };
  }
  const w = evenFloor(best.w);
  const h = evenFloor(best.h);
  const top = area.y + evenFloor((area.h - (best.rows * h + (best.rows - 1) * gap)) / 2);
  keys.forEach((key, i) => {
    const row = Math.floor(i / best.cols);
    const inRow = Math.min(best.cols, n - row * best.cols);
    const left = area.x + evenFloor((area.w - (inRow * w + (inRow - 1) * gap)) / 2);
    out.set(key, { x: left + (i % best.cols) * (w + gap), y: top + row * (h + gap), w, h });
  });
  return out;
}

/** Tiles in one column (or row), each as large as the strip allows, up to as many as fit. */
function line(strip: Rect, keys: readonly string[], gap: number, direction: 'column' | 'row'): Map<string, Rect> {
  const out = new Map<string, Rect>();
  if (strip.w <= 0 || strip.h <= 0) return out;
  const across = direction === 'column' ? strip.w : strip.h;
  const along = direction === 'column' ? strip.h : strip.w;
  // Tile size: the strip's width (height), unless that many would not fit along it.
  let tileAcross = direction === 'column' ? across : across * TILE_ASPECT;
  let tileAlong = direction === 'column' ? tileAcross / TILE_ASPECT : across;
  const need = keys.length * tileAlong + (keys.length - 1) * gap;
  if (need > along) {
    const shrink = (along - (keys.length - 1) * gap) / keys.length / tileAlong;
    // Tiles smaller than a quarter of the strip's width are not worth drawing: the rest are left out.
    if (shrink >= 0.25) {
      tileAcross *= shrink;
      tileAlong *= shrink;
    }
  }
  const w = evenFloor(direction === 'column' ? tileAcross : tileAlong);
  const h = evenFloor(direction === 'column' ? tileAlong : tileAcross);
  const step = (direction === 'column' ? h : w) + gap;
  const fits = Math.max(0, Math.floor((along + gap) / step));
  const shown = keys.slice(0, fits);
  const used = shown.length * step - gap;
  const start = evenFloor((along - used) / 2);
  shown.forEach((key, i) => {
    if (direction === 'column') out.set(key, { x: strip.x + evenFloor((strip.w - w) / 2), y: strip.y + start + i * step, w, h });
    else out.set(key, { x: strip.x + start + i * step, y: strip.y + evenFloor((strip.h - h) / 2), w, h });
  });
  return out;
}
