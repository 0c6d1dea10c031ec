// From `mcp-host serve` to an interactive page: the time until the shell
// prints its address, and until Chromium shows the first screen ready to use
// (settings read from the host, the message box enabled). The browser is
// started beforehand, so its own start is not counted. Also prints the first
// screen's JavaScript. Needs `npm run build`. One run of five starts, no
// assertions: prints the measured values.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { summarize, table } from './lib/measure.js';

const RUNS = 5;
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function initialJs(): { raw: number; gzip: number } {
  const html = readFileSync('dist/renderer/index.html', 'utf8');
  const files = [
    ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\.\/([^"]+\.js)"/g),
  ].map((m) => readFileSync(join('dist/renderer', m[1] ?? '')));
  return {
    raw: files.reduce((n, f) => n + f.length, 0),
    gzip: files.reduce((n, f) => n + gzipSync(f).length, 0),
  };
}

async function oneStart(browser: Awaited<ReturnType<typeof chromium.launch>>) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-startup-'));
  writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: {} }));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['dist/cli/mcp-host.mjs', 'serve', '--port', '0', '--config', join(dir, 'mcp-servers.json')],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, XDG_CONFIG_HOME: dir } },
  );
  const url = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/login\?code=[\w.-]+/.exec(out);
      if (match) resolve(match[0]);
    });
  });
  const printed = performance.now() - started;
  const page = await browser.newPage();
  await page.goto(url);
  await page.getByRole('region', { name: 'Set up Claude' }).waitFor();
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  const interactive = performance.now() - started;
  await page.close();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { printed, interactive };
}

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await oneStart(browser));
await browser.close();

const printed = summarize(runs.map((r) => r.printed));
const interactive = summarize(runs.map((r) => r.interactive));
const js = initialJs();
console.log(`startup bench (${String(RUNS)} starts, median; max in brackets)`);
const max = (xs: number[]) => Math.max(...xs).toFixed(0);
table([
  ['  serve → address printed', `${printed.p50.toFixed(0)} ms (${max(runs.map((r) => r.printed))})`],
  ['  serve → page interactive', `${interactive.p50.toFixed(0)} ms (${max(runs.map((r) => r.interactive))})`],
  ['  first screen JavaScript', `${(js.raw / 1000).toFixed(1)} kB (${(js.gzip / 1000).toFixed(1)} kB gzip)`],
]);
