/* global process */
// Preloaded into the emulator by bench/soak.ts (node --expose-gc --require this file): SIGUSR2
// runs a full garbage collection. The soak reads RSS right after one, so that it measures what
// the process keeps rather than how much garbage V8 chose to let pile up before collecting.
process.on('SIGUSR2', () => globalThis.gc());
