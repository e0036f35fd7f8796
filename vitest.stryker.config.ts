// The test suite as StrykerJS runs it (stryker.config.mjs). A mutant is switched on inside the
// Stryker worker's own process, so a test that exercises the emulator in a child process, a
// container or a browser page only ever sees the original code: it cannot kill a mutant, and it
// costs minutes per run. Those folders are left out here, and only here; `npx vitest run` still
// runs them all.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        '**/node_modules/**',
        // the CLI and `npm start`, each in a process of its own (bin bundle, signals, state file)
        'test/cli/**',
        // docker and the packed tarball
        'test/container/**',
        'test/install/**',
        // Chromium via playwright-core against a started emulator
        'test/browser/**',
      ],
      // A sandbox run needs no JSON file for .ci/run; the progress is Stryker's to show.
      reporters: ['dot'],
      outputFile: {},
    },
  }),
);
