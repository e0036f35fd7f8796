// The command line as one bundled file, dist/bin/emulator.cjs, with V8's code cache for it and
// the bin that runs both, dist/bin/meetings-emulator.js (scripts/launcher.mjs); the image runs the
// bin too. Node resolves and compiles one file instead of the hundreds of modules of express,
// zod, pino and our own src/, which is most of what a start used to cost.
//
//   node scripts/build.mjs             bundle now
//   node scripts/build.mjs --if-stale  bundle only when what the bundle is made of has changed
//
// It also builds the dashboard (scripts/build-ui.mjs) into dist/ui, when its sources changed.
// A full build also writes dist/container: the manifest and lockfile of the production install in
// the installed package's image (container/Dockerfile).
//
// `npm run build` also runs tsc, for the library (dist/src) and its declarations; `npm start`
// needs only the bundle, so it bundles when stale and does not wait for tsc.
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { contentHash } from './content-hash.mjs';
import { buildUi, ensureUi, UI_SOURCES } from './build-ui.mjs';
import { warmUp } from '../container/warm-up.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The bin. */
export const BUNDLE = path.join(ROOT, 'dist', 'bin', 'meetings-emulator.js');
const CODE = path.join(ROOT, 'dist', 'bin', 'emulator.cjs');
/** The media plane's own process (src/realtime/media/plane/plane-process.ts), found next to the bundle. */
const PLANE = path.join(ROOT, 'dist', 'bin', 'media-plane.mjs');
const CACHE = `${CODE}.cache`;
const STAMP = path.join(ROOT, 'dist', 'bin', '.inputs-hash');

/**
 * What the bundle is made of: our sources, the compiler settings, the dependencies' versions, our
 * patches to them (the media plane's bundle holds werift as patched), this script.
 */
function inputs() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      // The dashboard is built apart (scripts/build-ui.mjs), with its own inputs.
      if (full === UI_SOURCES) continue;
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(path.join(ROOT, 'src'));
  walk(path.join(ROOT, 'patches'));
  files.push(
    ...[
      'tsconfig.json',
      'tsconfig.build.json',
      'package.json',
      'package-lock.json',
      'scripts/build.mjs',
      'scripts/content-hash.mjs',
      'scripts/launcher.mjs',
    ].map((f) => path.join(ROOT, f)),
  );
  return files.sort();
}

/** A hash of the inputs' contents: unlike mtimes, it survives a fresh clone or a checkout that touches every file. */
export function inputsHash() {
  return contentHash(ROOT, inputs());
}

export function isStale() {
  try {
    statSync(BUNDLE);
    statSync(CODE);
    statSync(PLANE);
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

/**
 * Packages whose ES module build the bundle's import() loads, not their CommonJS build: werift's
 * runs several times faster per packet (native class fields, where its CommonJS build defines every
 * field of every RTP header and packet with Object.defineProperty). The bundle cannot import() by
 * itself (vm.Script), so the launcher gives it `require.import`, an import() of its own; without the
 * launcher (the bundle required as it is) it falls back on the CommonJS build.
 */
export const ES_MODULE_IMPORTS = ['werift'];
const esModuleImport = {
  name: 'es-module-import',
  setup(build) {
    const filter = new RegExp(`^(${ES_MODULE_IMPORTS.join('|')})$`);
    build.onResolve({ filter }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'es-module-import' } : undefined));
    // The import() of this stand-in resolves to what its `then` gives: the ES module's namespace.
    build.onLoad({ filter: /.*/, namespace: 'es-module-import' }, (args) => ({
      contents: `const loaded = typeof require.import === 'function' ? require.import(${JSON.stringify(args.path)}) : Promise.resolve().then(() => require(${JSON.stringify(args.path)}));
module.exports = { then: (resolve, reject) => loaded.then(resolve, reject) };`,
      loader: 'js',
    }));
  },
};

/**
 * Packages that Express and its middleware require when they load, but that only some answers use:
 * mime-types (with mime-db, about 2 MB of JSON made into lookup tables) for res.type() and
 * res.json(), http-errors for the errors body-parser and send raise. The emulator writes its own
 * answers, so a start and its first requests need neither. Inside the bundle each require() of
 * one gets a stand-in that loads the package the first time anything of it is used.
 */
export const ON_FIRST_USE = ['mime-types', 'http-errors'];
const onFirstUse = {
  name: 'on-first-use',
  setup(build) {
    const filter = new RegExp(`^(${ON_FIRST_USE.join('|')})$`);
    build.onResolve({ filter }, async (args) => {
      if (args.kind !== 'require-call' || args.pluginData?.real) return undefined;
      const real = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: { real: true } });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: real.path, namespace: 'on-first-use' };
    });
    // Both packages export a function or an object of functions: a function stand-in, forwarding
    // calls, `new`, and reads of its properties.
    build.onLoad({ filter: /.*/, namespace: 'on-first-use' }, (args) => ({
      contents: `let loaded;
const load = () => (loaded ??= require(${JSON.stringify(args.path)}));
module.exports = new Proxy(function () {}, {
  apply: (_, self, args) => Reflect.apply(load(), self, args),
  construct: (_, args) => Reflect.construct(load(), args),
  get: (_, key) => load()[key],
  has: (_, key) => key in load(),
});`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * The packages of features a start does not use unless they are switched on and used (the web
 * SDK's signalling socket, media and certificates; the clients of the clouds recordings are uploaded to). They stay out of the bundle: installed with
 * the package (they are dependencies; the image keeps them), required from node_modules the first
 * time the code that needs them runs. A start that does not use them neither reads nor evaluates
 * them, and the bundle and its code cache do not grow with them.
 */
export const ON_DEMAND = ['ws', 'protobufjs', 'werift', '@peculiar/x509', '@aws-sdk/client-s3', '@azure/storage-blob', 'ssh2'];
/**
 * The on-demand packages that the media plane's bundle holds instead: werift and @peculiar/x509, which
 * werift's ES module build imports. Every plane loads werift (when a page joins the media room, before
 * its SDK asks for a transport), and from node_modules that is about 260 modules, the greater part
 * of a plane's start: from its fork to werift loaded, 400–450 ms of CPU that way, 170–250 ms from
 * the one file (bench/media-plane-start.ts). The plane uses no other.
 */
const IN_PLANE = ['werift', '@peculiar/x509'];
const isOnDemand = (specifier) => ON_DEMAND.some((name) => specifier === name || specifier.startsWith(`${name}/`));

/**
 * Whether a start would load an on-demand package: one reached from the entry through static
 * imports only (a module imported with `import()` is evaluated when that import runs, and what it
 * imports with it). Returns the chain of modules that reaches one, or null.
 */
export function eagerOnDemandChain(metafile, entry) {
  const from = new Map([[entry, null]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const imp of metafile.inputs[file]?.imports ?? []) {
      if (imp.kind === 'dynamic-import') continue;
      if (imp.external && isOnDemand(imp.path)) {
        const chain = [imp.path];
        for (let at = file; at !== null; at = from.get(at)) chain.unshift(at);
        return chain;
      }
      if (!imp.external && !from.has(imp.path)) {
        from.set(imp.path, file);
        queue.push(imp.path);
      }
    }
  }
  return null;
}

/**
 * esbuild's options for the command line's bundle, written to `outfile`. bench/startup.ts builds
 * the same bundle with one more plugin (what each module costs to evaluate at a start).
 */
export function commandLineBuild(outfile, plugins = []) {
  return {
    absWorkingDir: ROOT,
    entryPoints: ['src/server.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    // CommonJS, for vm.Script and its code cache (see scripts/launcher.mjs).
    format: 'cjs',
    target: 'node20',
    // Non-ASCII characters escaped (esbuild's default, stated): the launcher reads the file as latin1, the fastest decoding.
    charset: 'ascii',
    // Names stay, so that a CPU profile of the bin reads.
    minifyWhitespace: true,
    minifySyntax: true,
    // The licence notices of the bundled packages stay, at the end of the file.
    legalComments: 'eof',
    plugins: [jsonAsString, esModuleImport, onFirstUse, ...plugins],
    external: ON_DEMAND.flatMap((name) => [name, `${name}/*`]),
    // import() of an on-demand package becomes a require() when it runs: vm.Script (see
    // scripts/launcher.mjs) has no module loader for an import() of its own (one given to it does
    // not survive the code cache). werift is the exception (esModuleImport).
    supported: { 'dynamic-import': false },
    metafile: true,
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  };
}

export async function bundle() {
  const hash = inputsHash();
  const { build } = await import('esbuild');
  mkdirSync(path.dirname(BUNDLE), { recursive: true });
  // Written next to the bundle, then renamed: two builds at once (test files, a start) never
  // leave a half-written file for the other to run.
  const tmp = `${CODE}.${process.pid}.tmp`;
  try {
    const { metafile } = await build(commandLineBuild(tmp));
    const chain = eagerOnDemandChain(metafile, 'src/server.ts');
    if (chain) {
      throw new Error(`${chain.at(-1)} would be loaded at every start (${chain.join(' → ')}): import it with import() where the feature that needs it starts`);
    }
    // The media plane's process: an ES module of its own, with werift's ES module build and what it
    // loads inside (IN_PLANE), so that the process costs little beyond the media it carries.
    await build({
      absWorkingDir: ROOT,
      entryPoints: ['src/realtime/media/plane/plane-process.ts'],
      outfile: `${PLANE}.${process.pid}.tmp`,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      charset: 'ascii',
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: 'eof',
      external: ON_DEMAND.filter((name) => !IN_PLANE.includes(name)).flatMap((name) => [name, `${name}/*`]),
      // werift's dependencies are CommonJS modules that require Node's own; an ES module has no `require`.
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      logLevel: 'warning',
    });
    renameSync(`${PLANE}.${process.pid}.tmp`, PLANE);
    // The shebang of src/server.ts: the bin has its own, and vm.Script takes none.
    writeFileSync(tmp, readFileSync(tmp, 'utf8').replace(/^#!.*\n/, ''));
    // A cache made for the old bundle must never meet the new one.
    rmSync(CACHE, { force: true });
    renameSync(tmp, CODE);
    copyFileSync(path.join(ROOT, 'scripts', 'launcher.mjs'), `${BUNDLE}.${process.pid}.tmp`);
    chmodSync(`${BUNDLE}.${process.pid}.tmp`, 0o755);
    renameSync(`${BUNDLE}.${process.pid}.tmp`, BUNDLE);
  } finally {
    rmSync(tmp, { force: true });
    rmSync(`${PLANE}.${process.pid}.tmp`, { force: true });
  }
  // One start and stop, so that the launcher leaves the code cache of what a start compiles.
  await warmUp(BUNDLE, ROOT);
  writeFileSync(STAMP, hash);
}

/** The manifest and lockfile that the image of the installed package installs from (container/Dockerfile). */
export const IMAGE_INSTALL = path.join(ROOT, 'dist', 'container');

/**
 * Writes dist/container/package.json and package-lock.json: the package's own, without the
 * development dependencies (and the scripts, so that no `prepare` could run). npm leaves a
 * package-lock.json at a package's root out of its tarball, and the image must install the versions
 * the package was built and tested with, not resolve the ranges afresh: this lockfile ships instead.
 */
export function writeImageInstall() {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  delete manifest.devDependencies;
  delete manifest.scripts;
  const packages = {};
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === '') {
      const { devDependencies: _dev, ...root } = entry;
      packages[where] = root;
    } else if (!entry.dev) packages[where] = entry;
  }
  mkdirSync(IMAGE_INSTALL, { recursive: true });
  writeFileSync(path.join(IMAGE_INSTALL, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(IMAGE_INSTALL, 'package-lock.json'), `${JSON.stringify({ ...lock, packages }, null, 2)}\n`);
}

/** Bundles (and builds the dashboard) when stale; returns whether it did. */
export async function ensureBundle() {
  const ui = await ensureUi();
  if (!isStale()) return ui;
  await bundle();
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale')) await ensureBundle();
  else {
    await buildUi();
    await bundle();
    writeImageInstall();
  }
}
