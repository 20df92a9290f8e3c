import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The container image and compose tests run on their own (vitest.deploy.config.ts).
    exclude: [...configDefaults.exclude, 'test/deploy/**'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most files wait on peers (Orthanc, dcmtk, PostgreSQL, SMTP, timers) far more than they compute:
    // one worker kept two cores a third busy and took 35 min; three take 13 min and pass the same.
    maxWorkers: 3,
  },
});
