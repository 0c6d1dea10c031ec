// Captures the tools/list results of real MCP servers from the npm registry
// into bench/fixtures/real-server-tools.json, the tool set the `tool-search`
// bench measures. Run it again to refresh the fixture:
//
//   node scripts/capture-server-tools.mjs [--out <file>] [--count 20]
//
// How: the three servers already in node_modules (server-everything,
// server-filesystem, server-memory) run from there; every other candidate is
// installed with `npm install --ignore-scripts` into one temporary folder
// (nothing is added to this project) and started with this Node over stdio.
// Servers that want a key get a dummy one: listing tools needs no real
// account, and no tool is ever called. Each server gets 60 s to start and list
// (every page). The first `--count` candidates that answer, in the order
// below, make the fixture; the rest, and any that failed, are printed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const OUT = resolve(flag('--out', 'bench/fixtures/real-server-tools.json'));
const COUNT = Number(flag('--count', '20'));
const TIMEOUT_MS = 60_000;

const scratch = mkdtempSync(join(tmpdir(), 'mcp-capture-'));
const sandbox = join(scratch, 'files');
mkdirSync(sandbox);
const DUMMY = 'dummy-key-for-listing-tools-only';

/**
 * The candidates, most widely used first. `local` ones run from this
 * project's node_modules; the others are installed into the scratch folder.
 */
const CANDIDATES = [
  { name: 'everything', pkg: '@modelcontextprotocol/server-everything', local: true, args: ['stdio'] },
  { name: 'filesystem', pkg: '@modelcontextprotocol/server-filesystem', local: true, args: [sandbox] },
  { name: 'memory', pkg: '@modelcontextprotocol/server-memory', local: true },
  { name: 'sequential-thinking', pkg: '@modelcontextprotocol/server-sequential-thinking' },
  {
    name: 'github',
    pkg: '@modelcontextprotocol/server-github',
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: DUMMY },
  },
  {
    name: 'gitlab',
    pkg: '@modelcontextprotocol/server-gitlab',
    env: { GITLAB_PERSONAL_ACCESS_TOKEN: DUMMY },
  },
  {
    name: 'slack',
    pkg: '@modelcontextprotocol/server-slack',
    env: { SLACK_BOT_TOKEN: DUMMY, SLACK_TEAM_ID: 'T000' },
  },
  { name: 'brave-search', pkg: '@modelcontextprotocol/server-brave-search', env: { BRAVE_API_KEY: DUMMY } },
  {
    name: 'google-maps',
    pkg: '@modelcontextprotocol/server-google-maps',
    env: { GOOGLE_MAPS_API_KEY: DUMMY },
  },
  { name: 'puppeteer', pkg: '@modelcontextprotocol/server-puppeteer', env: { PUPPETEER_SKIP_DOWNLOAD: '1' } },
  { name: 'postgres', pkg: '@modelcontextprotocol/server-postgres', args: ['postgresql://127.0.0.1:1/none'] },
  { name: 'everart', pkg: '@modelcontextprotocol/server-everart', env: { EVERART_API_KEY: DUMMY } },
  { name: 'playwright', pkg: '@playwright/mcp' },
  { name: 'context7', pkg: '@upstash/context7-mcp' },
  { name: 'notion', pkg: '@notionhq/notion-mcp-server', env: { NOTION_TOKEN: DUMMY } },
  { name: 'chrome-devtools', pkg: 'chrome-devtools-mcp' },
  { name: 'desktop-commander', pkg: '@wonderwhy-er/desktop-commander' },
  { name: 'tavily', pkg: 'tavily-mcp', env: { TAVILY_API_KEY: DUMMY } },
  { name: 'firecrawl', pkg: 'firecrawl-mcp', env: { FIRECRAWL_API_KEY: DUMMY } },
  { name: 'exa', pkg: 'exa-mcp-server', env: { EXA_API_KEY: DUMMY } },
  { name: 'kubernetes', pkg: 'mcp-server-kubernetes' },
  {
    name: 'aws-kb-retrieval',
    pkg: '@modelcontextprotocol/server-aws-kb-retrieval',
    env: { AWS_ACCESS_KEY_ID: DUMMY, AWS_SECRET_ACCESS_KEY: DUMMY, AWS_REGION: 'us-east-1' },
  },
  { name: 'browserbase', pkg: '@browserbasehq/mcp-server-browserbase', env: { BROWSERBASE_API_KEY: DUMMY } },
];

function install(pkgs) {
  console.error(`Installing ${pkgs.length} packages into ${scratch} (--ignore-scripts)…`);
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'capture', private: true }));
  const result = spawnSync(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel', 'error', ...pkgs],
    {
      cwd: scratch,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
    },
  );
  if (result.status !== 0)
    console.error(`npm install exited with ${result.status}; continuing with what installed`);
}

/** The package's own package.json and the file its (first) bin points to. */
function entryOf(candidate) {
  const base = candidate.local ? process.cwd() : scratch;
  const manifestPath = createRequire(join(base, 'noop.js')).resolve(`${candidate.pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (!bin) throw new Error('the package has no bin');
  return { version: manifest.version, entry: join(dirname(manifestPath), bin) };
}

async function listTools(candidate) {
  const { version, entry } = entryOf(candidate);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, ...(candidate.args ?? [])],
    env: { PATH: process.env.PATH ?? '', HOME: sandbox, ...(candidate.env ?? {}) },
    cwd: sandbox,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'mcp-host-capture', version: '1.0.0' });
  const timer = setTimeout(() => void transport.close(), TIMEOUT_MS);
  try {
    await client.connect(transport);
    const { tools } = await client.listTools(undefined, { timeout: TIMEOUT_MS });
    return { version, tools };
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}

install(CANDIDATES.filter((c) => !c.local).map((c) => c.pkg));
const servers = [];
const failures = [];
for (const candidate of CANDIDATES) {
  if (servers.length >= COUNT) break;
  try {
    const { version, tools } = await listTools(candidate);
    if (tools.length === 0) throw new Error('listed no tools');
    servers.push({ name: candidate.name, package: candidate.pkg, version, tools });
    console.error(`  ${candidate.name.padEnd(20)} ${candidate.pkg}@${version}: ${tools.length} tools`);
  } catch (error) {
    failures.push(
      `${candidate.name} (${candidate.pkg}): ${error instanceof Error ? error.message : String(error)}`,
    );
    console.error(`  ${candidate.name.padEnd(20)} failed: ${failures.at(-1)}`);
  }
}
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(
  OUT,
  `${JSON.stringify(
    {
      capturedAt: new Date().toISOString(),
      how: 'scripts/capture-server-tools.mjs: tools/list (all pages) of each server over stdio, started with dummy keys; no tool was called',
      node: process.version,
      servers,
    },
    null,
    1,
  )}\n`,
);
const total = servers.reduce((n, s) => n + s.tools.length, 0);
console.error(`Wrote ${OUT}: ${servers.length} servers, ${total} tools.`);
if (failures.length > 0) console.error(`Not captured:\n  ${failures.join('\n  ')}`);
rmSync(scratch, { recursive: true, force: true });
process.exit(0);
