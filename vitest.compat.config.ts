import { defineConfig } from 'vitest/config';

// The compatibility corpus (`npm run test:compat`): real servers from npm,
// installed outside the clone by scripts/compat-corpus.mjs.
export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/compat/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
