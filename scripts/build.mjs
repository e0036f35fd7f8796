// The command line as one bundled file, dist/bin/meetings-emulator.js (the package's bin and the
// image's command). Node resolves and compiles one file instead of some three hundred modules of
// express, zod, pino and our own src/, which is most of what a start used to cost.
//
//   node scripts/build.mjs             bundle now
//   node scripts/build.mjs --if-stale  bundle only when what the bundle is made of has changed
//
// `npm run build` also runs tsc, for the library (dist/src) and its declarations; `npm start`
// needs only the bundle, so it bundles when stale and does not wait for tsc.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE = path.join(ROOT, 'dist', 'bin', 'meetings-emulator.js');
const STAMP = path.join(ROOT, 'dist', 'bin', '.inputs-hash');

/** What the bundle is made of: our sources, the compiler settings, the dependencies' versions, this script. */
function inputs() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(path.join(ROOT, 'src'));
  files.push(...['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'scripts/build.mjs'].map((f) => path.join(ROOT, f)));
  return files.sort();
}

/** A hash of the inputs' contents: unlike mtimes, it survives a fresh clone or a checkout that touches every file. */
export function inputsHash() {
  const hash = createHash('sha256');
  for (const file of inputs()) {
    let content;
    try {
      content = readFileSync(file);
    } catch {
      continue; // package-lock.json is optional
    }
    hash.update(path.relative(ROOT, file)).update('\0').update(content).update('\0');
  }
  return hash.digest('hex');
}

export function isStale() {
  try {
    statSync(BUNDLE);
    return readFileSync(STAMP, 'utf8') !== inputsHash();
  } catch {
    return true;
  }
}

/**
 * Large JSON files (mime-db, iconv-lite's code pages) as JSON.parse of a string: V8 parses a JSON
 * string several times faster than the same data written as an object literal.
 */
const jsonAsString = {
  name: 'json-as-string',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.json$/ }, (args) => {
      const text = JSON.stringify(JSON.parse(readFileSync(args.path, 'utf8')));
      return { contents: `module.exports = JSON.parse(${JSON.stringify(text)});`, loader: 'js' };
    });
  },
};

export async function bundle() {
  const hash = inputsHash();
  const { build } = await import('esbuild');
  mkdirSync(path.dirname(BUNDLE), { recursive: true });
  // Written next to the bundle, then renamed: two builds at once (test files, a start) never
  // leave a half-written file for the other to run.
  const tmp = `${BUNDLE}.${process.pid}.tmp`;
  try {
    await build({
      entryPoints: [path.join(ROOT, 'src', 'server.ts')],
      outfile: tmp,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      minify: true,
      // The licence notices of the bundled packages stay, at the end of the file.
      legalComments: 'eof',
      plugins: [jsonAsString],
      // The shebang comes from src/server.ts. express and its helpers are CommonJS and call require() for Node's own modules.
      banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
      logLevel: 'warning',
    });
    renameSync(tmp, BUNDLE);
  } finally {
    rmSync(tmp, { force: true });
  }
  writeFileSync(STAMP, hash);
}

/** Bundles when stale; returns whether it did. */
export async function ensureBundle() {
  if (!isStale()) return false;
  await bundle();
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale')) await ensureBundle();
  else await bundle();
}
