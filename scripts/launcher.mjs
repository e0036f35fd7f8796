#!/usr/bin/env node
// The package's bin (copied to dist/bin/meetings-emulator.js by scripts/build.mjs). It runs the
// bundled command line, emulator.cjs next to it, through V8's code cache, emulator.cjs.cache:
// compiling the bundle (2 MB) is about a third of a start without it. Node 22 caches by itself
// (module.enableCompileCache); Node 20 needs this. The cache is made by the build and remade
// here, at exit, when V8 refuses it (another Node version, other V8 flags); a folder we may not
// write to only means starts without it.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const dir = path.dirname(fileURLToPath(import.meta.url));
const filename = path.join(dir, 'emulator.cjs');
const cacheFile = `${filename}.cache`;

let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
// The bundle is ASCII (charset: 'ascii' in scripts/build.mjs), so latin1 reads it exactly, and faster than utf8.
const script = new vm.Script(Module.wrap(readFileSync(filename, 'latin1')), { filename, cachedData });
if (cachedData === undefined || script.cachedDataRejected) {
  process.once('exit', () => {
    try {
      writeFileSync(cacheFile, script.createCachedData());
    } catch {
      // Read-only install: start without the cache.
    }
  });
}
const module = { exports: {} };
const require = createRequire(filename);
// The bundle's way to load a package's ES module build (scripts/build.mjs, ES_MODULE_IMPORTS): an
// import() of ours, since one in the bundle would have no loader to go to.
require.import = (specifier) => import(specifier);
script.runInThisContext()(module.exports, require, module, filename, dir);
