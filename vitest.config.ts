import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Tests drive time with the manual clock; nothing here should ever need long timeouts.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
