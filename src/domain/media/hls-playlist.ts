// The live HLS playlist of a LIVE livestream, as a pure function of how long it has been live
// (emulated time). The sample segments (fixtures/media/hls) loop for ever: media sequence
// number s plays segment file s mod n. Their timestamps jump back at each wrap, so an
// EXT-X-DISCONTINUITY precedes every segment that starts a new loop, and
// EXT-X-DISCONTINUITY-SEQUENCE counts the wraps before the first listed segment (RFC 8216
// §4.3.3.3), so players stay in sync as the window slides.
//
// Emulator decision: the segment that is "being recorded" at `liveMs` is already listed (the
// files exist in full), so a stream that just went live has one segment to play at once.

export interface HlsSegmentInfo {
  durationMs: number;
}

/** Segments listed in the sliding window. */
export const LIVE_WINDOW_SEGMENTS = 3;

/** The media sequence number of the segment that contains live time `liveMs`. */
export function liveSegmentAt(segments: readonly HlsSegmentInfo[], liveMs: number): number {
  const n = segments.length;
  const cycleMs = segments.reduce((sum, s) => sum + s.durationMs, 0);
  // Stryker disable next-line ConditionalExpression: with no segments cycleMs is 0, so the second test already returns.
  if (n === 0 || cycleMs <= 0) return 0;
  const ms = Math.max(0, liveMs);
  const cycles = Math.floor(ms / cycleMs);
  let rest = ms - cycles * cycleMs;
  let i = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: the remaining time is always below the last duration, so the walk stops at the last segment anyway.
  while (i < n - 1 && rest >= segments[i]!.durationMs) {
    rest -= segments[i]!.durationMs;
    i += 1;
  }
  return cycles * n + i;
}

/** Which file (index into `segments`) media sequence number `seq` plays. */
export function segmentIndexOf(segments: readonly HlsSegmentInfo[], seq: number): number {
  // Stryker disable next-line ConditionalExpression: the one caller answers 404 before it calls this when there are no segments.
  return segments.length === 0 ? 0 : seq % segments.length;
}

export function livePlaylist(segments: readonly HlsSegmentInfo[], liveMs: number, window = LIVE_WINDOW_SEGMENTS): string {
  const n = segments.length;
  const latest = liveSegmentAt(segments, liveMs);
  const first = Math.max(0, latest - window + 1);
  const target = Math.max(1, ...segments.map((s) => Math.ceil(s.durationMs / 1000)));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${target}`,
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${n === 0 ? 0 : Math.floor(first / n)}`,
  ];
  for (let seq = first; seq <= latest && n > 0; seq++) {
    // A wrap inside the window; the first listed segment's wraps are counted in the header.
    if (seq > first && seq % n === 0) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${(segments[seq % n]!.durationMs / 1000).toFixed(3)},`, `segments/${seq}.ts`);
  }
  return `${lines.join('\n')}\n`;
}
