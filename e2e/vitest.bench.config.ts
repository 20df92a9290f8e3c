import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/** `npm run bench:web`: the browser figures, kept out of `npm test` (no timing thresholds there). */
export default defineConfig({ ...base, test: { ...base.test, include: ['bench/**/*.bench.ts'] } });
