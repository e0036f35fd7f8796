// werift as published, next to the patched copy the install leaves in node_modules (the patch is in
// patches/, applied by patch-package): a copy of node_modules/werift with the patch taken back out
// (`patch -R`), in node_modules/.cache, where werift's own dependencies still resolve from the
// project's node_modules. Used by the benchmarks to measure the patched werift against werift's own
// code in the same run.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const INSTALLED = path.join(ROOT, 'node_modules', 'werift');
const COPY = path.join(ROOT, 'node_modules', '.cache', 'werift-unpatched');

/** The patch file of werift in patches/. */
function patchFile(): string {
  const name = readdirSync(path.join(ROOT, 'patches')).find((f) => f.startsWith('werift+') && f.endsWith('.patch'));
  if (!name) throw new Error('no patch of werift in patches/');
  return path.join(ROOT, 'patches', name);
}

/** Makes the unpatched copy (anew each time: the installed werift may have been reinstalled) and returns the URL of its ES module build. */
export function unpatchedWerift(): string {
  const patch = patchFile();
  if (!readFileSync(path.join(INSTALLED, 'lib', 'index.mjs'), 'utf8').includes('AesCmKeystream')) {
    throw new Error(`node_modules/werift is not patched: run \`npx patch-package\` (${path.basename(patch)})`);
  }
  rmSync(COPY, { recursive: true, force: true });
  cpSync(INSTALLED, COPY, { recursive: true });
  // -p3: the patch names its files a/node_modules/werift/…
  execFileSync('patch', ['-R', '-p3', '-s', '-d', COPY, '-i', patch]);
  const entry = path.join(COPY, 'lib', 'index.mjs');
  if (!existsSync(entry) || readFileSync(entry, 'utf8').includes('AesCmKeystream')) throw new Error('the patch did not come out of the copy');
  return pathToFileURL(entry).href;
}

/** The module hook (bench/lib/werift-unpatched-hook.mjs) that has a process import the unpatched copy for `werift`, for NODE_OPTIONS. */
export const UNPATCHED_HOOK = new URL('./werift-unpatched-hook.mjs', import.meta.url).href;
