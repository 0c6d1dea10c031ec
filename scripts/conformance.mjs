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
// Three sets, each one suite invocation (the suite runs a set's scenarios in
// parallel): the scenarios `--requirements 2025-11-25` scores, those
// `--requirements 2026-07-28` scores (each at its revision's wire), and
// `--suite all` (back-compat and extension scenarios included, each at its
// own default wire). A scenario passes only if at least one check ran and
// none failed, read from the checks.json the suite writes; there is no
// expected-failures list. Exits 1 if any scenario of any set fails.
//
// Usage: npm run conformance [-- scenario…]
//   With scenario names, runs only those, in every set that holds them, one
//   `--scenario` invocation each with at most PARALLEL at a time.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SUITE_VERSION = '0.2.0-alpha.12';
const REVISIONS = ['2025-11-25', '2026-07-28'];
/** Single-scenario invocations at once when a subset is named (each starts Node 22 and our client). */
const PARALLEL = 4;

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

/** Runs the suite's CLI with `args`; resolves with its exit code and output. */
function suite(args) {
  const npx = ['-y', '-p', 'node@22', '-p', `@modelcontextprotocol/conformance@${SUITE_VERSION}`, '--'];
  return new Promise((resolve) => {
    const child = spawn('npx', [...npx, 'conformance', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: root,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The client scenarios a set runs: { scored, unscored } (unscored: run and reported by the suite, never scored). */
async function scenariosOf(set) {
  const { output } = await suite(
    set === 'all' ? ['list', '--client'] : ['list', '--client', '--requirements', set],
  );
  const scored = [];
  const unscored = [];
  let section = '';
  for (const line of output.split('\n')) {
    if (/^Client scenarios/.test(line)) section = 'client';
    else if (/^(Server|Authorization server) scenarios/.test(line)) section = 'other';
    else if (/^Run and reported, but never scored/.test(line)) section = 'unscored';
    const listed = /^\s+- (\S+)(?: \[(\w+)\])?/.exec(line);
    if (!listed) continue;
    if (section === 'client') scored.push(listed[1]);
    else if (section === 'unscored' && listed[2] === 'client') unscored.push(listed[1]);
  }
  if (scored.length === 0) throw new Error(`the suite listed no client scenarios for ${set}:\n${output}`);
  return { scored, unscored };
}

const command = ['--command', `${process.execPath} ${client}`];

/** The checks.json the suite wrote for `scenario` under `dir` (its folder is `<scenario>-<timestamp>`). */
function checksOf(dir, scenario) {
  const slash = scenario.lastIndexOf('/');
  const folder = join(dir, scenario.slice(0, slash + 1));
  const base = scenario.slice(slash + 1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const own = new RegExp(`^${base}-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z$`);
  const newest = existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => own.test(name))
        .sort()
        .at(-1)
    : undefined;
  if (!newest) return undefined;
  const file = join(folder, newest, 'checks.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/** One row of the table: the verdict of one scenario in one set. */
function verdict(set, scenario, checks, scored) {
  const count = (status) => (checks ?? []).filter((check) => check.status === status).length;
  const ok = checks !== undefined && count('SUCCESS') > 0 && count('FAILURE') === 0;
  const timing = checks?.find((check) => check.id === 'client-sse-retry-timing');
  const failures = (checks ?? [])
    .filter((check) => check.status === 'FAILURE')
    .map((check) => `${check.id}: ${check.errorMessage ?? check.description ?? ''}`);
  return {
    set,
    scenario,
    scored,
    ok,
    success: count('SUCCESS'),
    failure: count('FAILURE'),
    warning: count('WARNING'),
    note:
      checks === undefined
        ? 'no checks.json (the scenario did not run)'
        : timing?.details
          ? `reconnected after ${timing.details.actualDelayMs} ms (retry ${timing.details.expectedRetryMs} ms)`
          : '',
    failures,
  };
}

/** Runs a whole set in one suite invocation. */
async function runSet(set, outputDir) {
  const { scored, unscored } = await scenariosOf(set);
  const dir = join(outputDir, set);
  mkdirSync(dir, { recursive: true });
  const selection = set === 'all' ? ['--suite', 'all'] : ['--requirements', set];
  const result = await suite(['client', ...command, ...selection, '--output-dir', dir]);
  const rows = [
    ...scored.map((scenario) => verdict(set, scenario, checksOf(dir, scenario), true)),
    ...unscored.map((scenario) => verdict(set, scenario, checksOf(dir, scenario), false)),
  ];
  return { rows, output: result.output };
}

/** Runs the named scenarios in every set that holds them, PARALLEL at a time. */
async function runSubset(names, outputDir) {
  const lists = Object.fromEntries(
    await Promise.all(['all', ...REVISIONS].map(async (set) => [set, await scenariosOf(set)])),
  );
  const known = new Set(lists.all.scored);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    console.error(`Unknown client scenario(s): ${unknown.join(', ')}\nKnown: ${[...known].join(', ')}`);
    process.exit(2);
  }
  const jobs = [];
  for (const set of [...REVISIONS, 'all']) {
    const { scored, unscored } = lists[set];
    for (const scenario of names) {
      if (!scored.includes(scenario) && !unscored.includes(scenario)) continue;
      jobs.push({ set, scenario, scored: scored.includes(scenario) });
    }
  }
  const rows = [];
  const outputs = [];
  let next = 0;
  async function worker() {
    while (next < jobs.length) {
      const job = jobs[next++];
      const dir = join(outputDir, job.set);
      mkdirSync(dir, { recursive: true });
      const wire = job.set === 'all' ? [] : ['--spec-version', job.set, '--force'];
      const result = await suite([
        'client',
        ...command,
        '--scenario',
        job.scenario,
        ...wire,
        '--output-dir',
        dir,
      ]);
      const row = verdict(job.set, job.scenario, checksOf(dir, job.scenario), job.scored);
      rows.push(row);
      if (!row.ok) outputs.push(`--- ${job.set} ${job.scenario} ---\n${result.output}`);
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL, jobs.length) }, worker));
  const order = (row) => [...REVISIONS, 'all'].indexOf(row.set);
  rows.sort(
    (a, b) =>
      order(a) - order(b) ||
      jobs.findIndex((j) => j.scenario === a.scenario) - jobs.findIndex((j) => j.scenario === b.scenario),
  );
  return { rows, outputs };
}

function printTable(rows) {
  const header = ['SET', 'SCENARIO', 'RESULT', 'SUCCESS', 'FAILURE', 'WARNING', 'NOTE'];
  const cells = rows.map((row) => [
    row.set,
    row.scenario,
    (row.ok ? 'pass' : 'FAIL') + (row.scored ? '' : ' (unscored)'),
    String(row.success),
    String(row.failure),
    String(row.warning),
    row.note,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i].length)));
  for (const row of [header, ...cells]) {
    console.log(
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
  }
  const failing = rows.filter((row) => !row.ok);
  if (failing.length > 0) {
    console.log('\nFailed checks:');
    for (const row of failing) {
      console.log(`  ${row.set} ${row.scenario}`);
      for (const line of row.failures.slice(0, 5)) console.log(`    ${line.slice(0, 300)}`);
    }
  }
}

const names = process.argv.slice(2);
const outputDir = mkdtempSync(join(tmpdir(), 'mcp-host-conformance-'));
const started = performance.now();
const rows = [];
const timings = [];
if (names.length > 0) {
  const result = await runSubset(names, outputDir);
  rows.push(...result.rows);
  for (const output of result.outputs) if (process.env.CONFORMANCE_VERBOSE) console.error(output);
} else {
  // One set at a time: each already runs all of its scenarios at once, and the machine is small.
  for (const set of [...REVISIONS, 'all']) {
    const setStarted = performance.now();
    const result = await runSet(set, outputDir);
    timings.push(`${set} ${((performance.now() - setStarted) / 1000).toFixed(1)} s`);
    rows.push(...result.rows);
    if (process.env.CONFORMANCE_VERBOSE) console.error(result.output);
  }
}
printTable(rows);

const totals = [...REVISIONS, 'all']
  .map((set) => {
    const scored = rows.filter((row) => row.set === set && row.scored);
    if (scored.length === 0) return undefined;
    return `${set}: ${scored.filter((row) => row.ok).length}/${scored.length}`;
  })
  .filter((line) => line !== undefined);
const unscored = rows.filter((row) => !row.scored);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `\n@modelcontextprotocol/conformance ${SUITE_VERSION}: ${totals.join(', ')}` +
    (unscored.length > 0
      ? ` (plus unscored extension scenarios in the revision sets: ${unscored.filter((row) => row.ok).length}/${unscored.length})`
      : ''),
);
console.log(`${seconds} s${timings.length > 0 ? ` (${timings.join(', ')})` : ''}; results in ${outputDir}`);
// Every scenario of every set must pass: scored or not, revision set or
// `--suite all`. There is no expected-failures list.
const failing = rows.filter((row) => !row.ok);
if (failing.length > 0)
  console.log(`Failing: ${failing.map((row) => `${row.set} ${row.scenario}`).join(', ')}`);
process.exit(failing.length === 0 ? 0 : 1);
