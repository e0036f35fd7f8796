// A recording's watermark image (`video_config.watermark.url`), fetched once when the recording
// starts. What production does with a URL that does not load is not documented; the emulator
// answers a recording started through the API with a 400 naming the reason before anything starts,
// and ends one started otherwise (record_on_start, a meeting's config) ERRORED with that reason.
//
// Only images an encoder reads are taken (PNG, JPEG, GIF, WebP, by their first bytes), at most
// MAX_WATERMARK_BYTES, within FETCH_LIMIT_MS of real time.
export const MAX_WATERMARK_BYTES = 5 * 1024 * 1024;
const FETCH_LIMIT_MS = 10_000;

export interface WatermarkImage {
  bytes: Buffer;
  /** The extension its format is known by (png, jpg, gif, webp). */
  ext: string;
}

/** Why a watermark could not be used: a phrase that follows its name ("could not be loaded (HTTP 404)"). */
export class WatermarkUnusable extends Error {}

/** The image format of some bytes, by their signature; undefined for anything else. */
export function imageExtension(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.toString('latin1', 0, 6) === 'GIF87a' || bytes.toString('latin1', 0, 6) === 'GIF89a') return 'gif';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

export type WatermarkFetch = (url: string) => Promise<WatermarkImage>;

/** Fetches a watermark image over HTTP(S); rejects with WatermarkUnusable saying why it cannot be used. */
export const fetchWatermark: WatermarkFetch = async (url) => {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(FETCH_LIMIT_MS), redirect: 'follow' });
  } catch (err) {
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    const why =
      (err as Error).name === 'TimeoutError' ? `no answer within ${FETCH_LIMIT_MS / 1000} s` : (cause?.code ?? cause?.message ?? (err as Error).message);
    throw new WatermarkUnusable(`could not be loaded from ${url} (${why})`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new WatermarkUnusable(`could not be loaded from ${url} (HTTP ${res.status})`);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_WATERMARK_BYTES) {
    await res.body?.cancel();
    throw new WatermarkUnusable(`at ${url} is larger than ${MAX_WATERMARK_BYTES / 1024 / 1024} MB`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body ?? []) {
    total += (chunk as Uint8Array).length;
    if (total > MAX_WATERMARK_BYTES) throw new WatermarkUnusable(`at ${url} is larger than ${MAX_WATERMARK_BYTES / 1024 / 1024} MB`);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  const bytes = Buffer.concat(chunks);
  const ext = imageExtension(bytes);
  if (!ext) throw new WatermarkUnusable(`at ${url} is not a PNG, JPEG, GIF or WebP image`);
  return { bytes, ext };
};
