import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    // Unit tests mirror the sources under test/unit/ (docs/development.md, "Where the tests are").
    include: ['test/**/*.test.ts'],
    // The compatibility corpus has its own run (npm run test:compat) after its install.
    exclude: ['test/compat/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
