// --state-file: the state survives restarts. Loaded at start when the file exists; written
// atomically (a temporary file renamed over the old one) every N seconds and on SIGTERM/SIGINT.
import { existsSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { FixtureError } from '../store/fixtures.js';
import type { StateService } from './state.service.js';

/** Loads the file into the emulator when it exists; false when there is none yet. */
export function loadStateFile(file: string, state: StateService): boolean {
  if (!existsSync(file)) return false;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new FixtureError(`${file}: (root): not a readable JSON state file (${(err as Error).message})`);
  }
  state.load(state.parse(data, file));
  return true;
}

export function saveStateFile(file: string, state: StateService): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(state.export()));
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}
