// Prints how much JavaScript the renderer's first screen loads: the entry
// script of dist/renderer/index.html and the chunks it preloads, raw and
// gzipped. Everything else is loaded on demand (each feature's lazy.tsx under renderer/src/features/,
// and the bridge's checks: renderer/src/bridge/inbound-checks.ts). Fails the
// build when the first screen passes its budget (issue 13: at most 350 kB).
// Run after `vite build` (npm run build:renderer does).
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dir = 'dist/renderer';
const BUDGET = 350_000;
const html = readFileSync(join(dir, 'index.html'), 'utf8');
const initial = [
  ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\.\/([^"]+\.js)"/g),
].map((m) => m[1]);
const size = (file) => {
  const body = readFileSync(join(dir, file));
  return { raw: body.length, gzip: gzipSync(body).length };
};
const sum = (files) =>
  files.map(size).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
const all = readdirSync(join(dir, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => `assets/${f}`);
const lazy = all.filter((f) => !initial.includes(f));
const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
const first = sum(initial);
const rest = sum(lazy);
console.log(
  `Initial JS (first screen): ${kb(first.raw)} (${kb(first.gzip)} gzip) in ${String(initial.length)} files ` +
    `(budget ${kb(BUDGET)}); ` +
    `on demand: ${kb(rest.raw)} in ${String(lazy.length)} chunks.`,
);
if (first.raw > BUDGET) {
  console.error(
    `The first screen's JavaScript is over its budget of ${kb(BUDGET)}: load what it does not draw on demand ` +
      '(renderer/src/features/<feature>/lazy.tsx), and import only types or zod-free modules from shared/ there.',
  );
  process.exit(1);
}
