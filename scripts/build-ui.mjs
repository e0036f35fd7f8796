// The dashboard (src/ui/app) as static files in dist/ui, which the emulator serves at
// /_emulator/ui: one page, one entry script and its style, and a chunk per library loaded on
// demand (the HLS player, only when a livestream is played). Each file also gets a Brotli and a
// gzip copy, so the emulator sends compressed bytes without compressing on every request.
// Preact, htm and hls.js are dev dependencies: they are bundled here, so the published package
// and the container need none of them at run time.
//
//   node scripts/build-ui.mjs             build now
//   node scripts/build-ui.mjs --if-stale  build only when what the dashboard is made of has changed
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { contentHash } from './content-hash.mjs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const UI_SOURCES = path.join(ROOT, 'src', 'ui', 'app');
export const UI_OUT = path.join(ROOT, 'dist', 'ui');
const STAMP = path.join(UI_OUT, '.inputs-hash');

/** What the dashboard is made of: its sources, this script, the locked versions of the libraries it bundles. */
function inputs() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(UI_SOURCES);
  files.push(...['package-lock.json', 'scripts/build-ui.mjs', 'scripts/content-hash.mjs'].map((f) => path.join(ROOT, f)));
  return files.sort();
}

export function uiInputsHash() {
  return contentHash(ROOT, inputs());
}

export function isUiStale() {
  try {
    statSync(path.join(UI_OUT, 'index.html'));
    return readFileSync(STAMP, 'utf8') !== uiInputsHash();
  } catch {
    return true;
  }
}

export async function buildUi() {
  const hash = uiInputsHash();
  const { build } = await import('esbuild');
  // Built next to dist/ui, then moved in file by file: a build running at the same time (a
  // test, a start) never serves a page whose script is not there yet.
  const tmp = `${UI_OUT}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    await build({
      entryPoints: [path.join(UI_SOURCES, 'main.ts')],
      outdir: tmp,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: ['chrome111', 'firefox115', 'safari16.4'],
      minify: true,
      entryNames: '[name]',
      chunkNames: 'chunk-[hash]',
      assetNames: '[name]-[hash]',
      legalComments: 'eof',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'warning',
    });
    copyFileSync(path.join(UI_SOURCES, 'index.html'), path.join(tmp, 'index.html'));
    const built = readdirSync(tmp);
    for (const name of built) {
      const bytes = readFileSync(path.join(tmp, name));
      writeFileSync(path.join(tmp, `${name}.gz`), gzipSync(bytes, { level: 9 }));
      writeFileSync(path.join(tmp, `${name}.br`), brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    }
    mkdirSync(UI_OUT, { recursive: true });
    // Chunks and compressed copies before the page that needs them.
    const order = readdirSync(tmp).sort((a, b) => Number(a.startsWith('index.html')) - Number(b.startsWith('index.html')));
    for (const name of order) renameSync(path.join(tmp, name), path.join(UI_OUT, name));
    // Chunks of earlier builds are no longer referenced.
    const current = new Set(order);
    for (const name of readdirSync(UI_OUT)) if (name.startsWith('chunk-') && !current.has(name)) rmSync(path.join(UI_OUT, name), { force: true });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  writeFileSync(STAMP, hash);
}

/** Builds when stale; returns whether it did. */
export async function ensureUi() {
  if (!isUiStale()) return false;
  await buildUi();
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale')) await ensureUi();
  else await buildUi();
}
