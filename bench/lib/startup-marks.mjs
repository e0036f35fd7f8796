// Preloaded into an emulator's process by bench/startup.ts (`node --import`): the moments of a
// start, read with performance.now() (milliseconds since the process began), and what each module
// of the bundle costs to evaluate when the bundle was built with the bench's marks (each module
// calls enter() first and leave() last). At the first answer it writes one line to stderr:
// `STARTUP {"phases":…,"modules":…}`, and changes nothing else.
import http from 'node:http';
import Module from 'node:module';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const phases = { preload: performance.now() };
/** Module → milliseconds spent in it, not counting the modules it loaded itself. */
const self = Object.create(null);
const stack = [];
globalThis.__startupCost = {
  enter(name) {
    const now = performance.now();
    phases.firstModule ??= now;
    stack.push({ name, at: now, children: 0 });
  },
  leave(name) {
    const now = performance.now();
    // A module that returned early never left: its time goes to the module that loaded it.
    if (!stack.some((frame) => frame.name === name)) return;
    for (;;) {
      const top = stack.pop();
      const spent = now - top.at;
      self[top.name] = (self[top.name] ?? 0) + spent - top.children;
      if (stack.length > 0) stack[stack.length - 1].children += spent;
      if (top.name === name) break;
    }
    phases.lastModule = now;
  },
};

// Node's own modules that the start loads beyond the ones loaded already, timed like the bundle's
// modules (their cost is not their requirer's), with the module that first asked for each.
/** node:<name> → the module that first loaded it. */
const builtins = Object.create(null);
const load = Module._load;
Module._load = function (request, ...rest) {
  const name = `node:${request.replace(/^node:/, '')}`;
  if (!Module.isBuiltin(request) || name in builtins || stack.length === 0) return load.call(this, request, ...rest);
  const before = process.moduleLoadList.length;
  builtins[name] = stack[stack.length - 1].name;
  globalThis.__startupCost.enter(name);
  try {
    return load.call(this, request, ...rest);
  } finally {
    globalThis.__startupCost.leave(name);
    // Already loaded before (by Node itself or the launcher): nothing was paid.
    if (process.moduleLoadList.length === before) delete builtins[name];
  }
};

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  phases.firstListen ??= performance.now();
  return listen.apply(this, args);
};

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request' && phases.firstRequest === undefined) {
    phases.firstRequest = performance.now();
    res.once('finish', () => {
      phases.firstAnswer = performance.now();
      process.stderr.write(`STARTUP ${JSON.stringify({ phases, modules: self, builtins })}\n`);
    });
  }
  return emit.call(this, event, req, res);
};
