// Runs the official MCP conformance suite's client scenarios against our
// conformance client (dist/cli/conformance-client.mjs, built on the host core).
//
// The suite (@modelcontextprotocol/conformance, pinned below) needs Node >= 22
// while the project runs on Node 20, so it runs through npx with Node 22 on
// its PATH: `npx -y -p node@22 -p @modelcontextprotocol/conformance@VERSION
// conformance client …`. It is not a devDependency: it brings the v1 SDK,
// express and Octokit, none of which the app needs. Our client itself runs on
// the Node that runs this script.
//
// Usage: npm run conformance [-- scenario…]   (default: all of SCENARIOS below)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SUITE_VERSION = '0.1.16';
const SCENARIOS = ['initialize', 'tools_call', 'sse-retry', 'elicitation-sep1034-client-defaults'];

const root = fileURLToPath(new URL('..', import.meta.url));
const client = join(root, 'dist/cli/conformance-client.mjs');
if (!existsSync(client)) {
  console.error('dist/cli/conformance-client.mjs is missing: run `npm run build:node` first');
  process.exit(2);
}
// The suite splits --command on spaces.
if (/\s/.test(process.execPath + client)) {
  console.error('The conformance suite cannot run a command whose path contains spaces.');
  process.exit(2);
}

const scenarios = process.argv.slice(2).length > 0 ? process.argv.slice(2) : SCENARIOS;
const outputDir = mkdtempSync(join(tmpdir(), 'mcp-host-conformance-'));

/** Runs one scenario; resolves with its exit code, the checks it recorded and how long it took. */
function runScenario(scenario) {
  const started = performance.now();
  const args = [
    '-y',
    '-p',
    'node@22',
    '-p',
    `@modelcontextprotocol/conformance@${SUITE_VERSION}`,
    '--',
    'conformance',
    'client',
    '--command',
    `${process.execPath} ${client}`,
    '--scenario',
    scenario,
    '--output-dir',
    outputDir,
  ];
  return new Promise((resolve) => {
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      resolve({ scenario, code: code ?? 1, output, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** The checks.json the suite wrote for a scenario (the newest one). */
function checksOf(scenario) {
  const dirs = readdirSync(outputDir)
    .filter((name) => name.startsWith(`${scenario}-`))
    .sort();
  const newest = dirs.at(-1);
  if (!newest) return [];
  const file = join(outputDir, newest, 'checks.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
}

const rows = [];
let failed = false;
const allStarted = performance.now();
for (const scenario of scenarios) {
  const result = await runScenario(scenario);
  const checks = checksOf(scenario);
  const count = (status) => checks.filter((check) => check.status === status).length;
  const ok = result.code === 0 && count('FAILURE') === 0;
  if (!ok) {
    failed = true;
    console.error(`\n--- ${scenario} (exit ${result.code}) ---\n${result.output}`);
  }
  rows.push([
    scenario,
    ok ? 'pass' : 'FAIL',
    String(count('SUCCESS')),
    String(count('FAILURE')),
    String(count('WARNING')),
    result.seconds.toFixed(1),
  ]);
  const timing = checks.find((check) => check.id === 'client-sse-retry-timing');
  if (timing?.details) {
    rows
      .at(-1)
      .push(
        `reconnected after ${timing.details.actualDelayMs} ms (retry ${timing.details.expectedRetryMs} ms)`,
      );
  }
}

const header = ['SCENARIO', 'RESULT', 'SUCCESS', 'FAILURE', 'WARNING', 'SECONDS', 'NOTE'];
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
for (const row of [header, ...rows]) {
  console.log(
    row
      .map((cell, i) => (cell ?? '').padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
}
console.log(
  `\n@modelcontextprotocol/conformance ${SUITE_VERSION}, ${scenarios.length} scenarios in ${((performance.now() - allStarted) / 1000).toFixed(1)} s; results in ${outputDir}`,
);
process.exit(failed ? 1 : 0);
