// `npm run bench`: builds every bench/*.bench.ts (esbuild: platform node,
// bundled, packages external) into dist/bench/ and runs each with node, one
// after another, with --expose-gc. Each bench prints its own table of values
// and ratios measured in this one run; nothing here asserts on time.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { build } from 'esbuild';

const only = process.argv.slice(2);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const entries = readdirSync('bench')
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort()
  .map((file) => `bench/${file}`);
if (entries.length === 0) {
  console.error(`No bench/*.bench.ts${only.length > 0 ? ` matching ${only.join(', ')}` : ''}`);
  process.exit(2);
}

await build({
  entryPoints: entries,
  outdir: 'dist/bench',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
});

let failed = 0;
for (const entry of entries) {
  const name = basename(entry, '.ts');
  console.log(`\n== ${name} ==`);
  const run = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', `dist/bench/${name}.mjs`], {
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    failed += 1;
    console.error(`${name} exited with ${String(run.status ?? run.signal)}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
