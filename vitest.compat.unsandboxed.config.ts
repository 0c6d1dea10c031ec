import { defineConfig, mergeConfig } from 'vitest/config';
import compat from './vitest.compat.config.js';

// The compatibility corpus a second time, every local server with its sandbox
// turned off: the reference the sandboxed run is compared with.
export default mergeConfig(
  compat,
  defineConfig({
    test: { env: { COMPAT_SANDBOX: 'off' } },
  }),
);
