import { defineConfig } from 'vitest/config';

// Browser tests drive the real server (started once in globalSetup) in Debian's Chromium, one
// file at a time so they never compete for the machine.
export default defineConfig({
  test: {
    include: ['specs/**/*.e2e.test.ts'],
    globalSetup: ['support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
