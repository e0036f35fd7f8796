import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The README's example imports the package by name, as a user would.
    // The subpath comes first: an alias also matches every path below its name.
    alias: {
      'meetings-emulator/testcontainers': fileURLToPath(new URL('./src/testcontainers.ts', import.meta.url)),
      'meetings-emulator': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // vitest's default is one worker fewer than the cores: a single file at a time on two cores. The
    // browser and media files spend much of their time waiting on Chromium, ffmpeg and the media
    // plane, so two files side by side take about 60 % of the time there (bench/TEST-SUITE.md); a
    // third made the browser tests miss their waits on such a machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Tests drive time with the manual clock; these timeouts only guard against hangs.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The JSON report gives .ci/run its closing line.
    reporters: ['default', 'json'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
