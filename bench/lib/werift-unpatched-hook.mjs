/* global process */
// `--import` this file (NODE_OPTIONS) with WERIFT_UNPATCHED set to the URL of the unpatched copy's
// ES module build (bench/lib/werift-unpatched.ts) and the process imports that copy for `werift`:
// a media plane whose werift is werift's own code, next to one with the installed (patched) werift.
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

let target;

export function initialize(data) {
  target = data;
}

export async function resolve(specifier, context, next) {
  if (specifier === 'werift' && target) return { url: target, shortCircuit: true };
  return next(specifier, context);
}

// In the process: the hooks above run on the loader's own thread, registered from here.
if (isMainThread && process.env.WERIFT_UNPATCHED) register(import.meta.url, { data: process.env.WERIFT_UNPATCHED });
