// Bundles the Node side: the Electron main process and preload, and the CLI
// (which also runs the headless shell). The renderer is built by Vite.
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
};

await Promise.all([
  // Main process: ESM; dependencies stay in node_modules (electron-builder packs them).
  build({
    ...common,
    entryPoints: ['electron/main.ts'],
    outfile: 'dist/electron/main.js',
    format: 'esm',
    packages: 'external',
  }),
  // A sandboxed preload may only require('electron'): bundle everything else, CommonJS.
  build({
    ...common,
    entryPoints: ['electron/preload.ts'],
    outfile: 'dist/electron/preload.cjs',
    format: 'cjs',
    minify: true,
    external: ['electron'],
  }),
  build({
    ...common,
    entryPoints: ['electron/cli/mcp-host.ts'],
    outfile: 'dist/cli/mcp-host.mjs',
    format: 'esm',
    packages: 'external',
    banner: { js: '#!/usr/bin/env node' },
  }),
  // Loaded into sandboxed Node servers so their fetch goes through their network proxy
  // (electron/sandbox-preload/node-proxy.ts): self-contained, CommonJS, for old Node too.
  ...['node-proxy', 'node-proxy-agent'].map((name) =>
    build({
      ...common,
      entryPoints: [`electron/sandbox-preload/${name}.ts`],
      outfile: `dist/sandbox/${name}.cjs`,
      format: 'cjs',
      target: 'node18',
      minify: true,
      sourcemap: false,
    }),
  ),
  // The client the official MCP conformance suite drives (npm run conformance).
  build({
    ...common,
    entryPoints: ['electron/cli/conformance-client.ts'],
    outfile: 'dist/cli/conformance-client.mjs',
    format: 'esm',
    packages: 'external',
  }),
]);

// The CLI is the package's bin.
chmodSync('dist/cli/mcp-host.mjs', 0o755);
