// Ending what a test file started, whatever failed on the way: the browser files share their
// worker's modules, so anything one of them leaves running (an emulator and its media plane, a
// browser, a server) stays for the files after it.
import type { Server } from 'node:http';

/**
 * Runs every step in order (a browser before the emulator its pages talk to), each even when one
 * before it threw, then throws the first error. A step that is `undefined` (what a failed setup
 * never made) is passed over.
 */
export async function endAll(...steps: ((() => unknown) | undefined)[]): Promise<void> {
  const errors: unknown[] = [];
  for (const step of steps) {
    try {
      await step?.();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) throw errors[0];
}

/** Closes a server that may never have been made; it resolves once the server has stopped. */
export function closeServer(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}
