// One start and stop of the bundled command line, so that its launcher (scripts/launcher.mjs)
// leaves V8's code cache of what a start compiles next to the bundle: dist/bin/emulator.cjs.cache.
// A cache is only taken by the Node.js that made it, so it is made where the emulator runs: by
// the build (scripts/build.mjs), and in the image of the installed package (container/Dockerfile),
// whose Node.js may not be the one that packed it. Without it the first start makes it, and in a
// container that is every start. A failure here costs the cache, never the build.
//
//   node container/warm-up.mjs [bin]   (default: dist/bin/meetings-emulator.js of the working directory)
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import path from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';

/** Starts `bin` on a free loopback port, asks it for its health once it listens, stops it (or after 30 s), and resolves. */
export function warmUp(bin, cwd = path.resolve(path.dirname(bin), '..', '..')) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent'], {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    let asked = false;
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (!url || asked) return;
      asked = true;
      // The first request too (the health check every waiting client makes): the cache then holds
      // what answering costs to compile, not only what starting does.
      get(`${url}/_emulator/health`, (res) => res.resume().on('end', () => child.kill('SIGTERM'))).on('error', () => child.kill('SIGTERM'));
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await warmUp(path.resolve(process.argv[2] ?? path.join('dist', 'bin', 'meetings-emulator.js')));
}
