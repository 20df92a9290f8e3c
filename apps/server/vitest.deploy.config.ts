import { defineConfig } from 'vitest/config';

/**
 * The deploy tests (test/deploy): the product's container image and the compose cluster, run by
 * podman. Apart from the other tests because they build images and start containers, one file at
 * a time; npm test runs them after the others (scripts/test.sh).
 */
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['test/deploy/**/*.test.ts'],
    globalSetup: ['test/deploy/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 1_800_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
