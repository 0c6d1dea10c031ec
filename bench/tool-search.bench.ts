// Tool search and bounded tool lists, measured through the real host core,
// the real @anthropic-ai/sdk and the fake Messages API (which records what
// it is sent). Prints values and ratios measured in this one run.
//
// Part 1 — the tool set of 20 real npm MCP servers. Their tools/list results
// were captured by scripts/capture-server-tools.mjs into
// bench/fixtures/real-server-tools.json (server-everything, -filesystem and
// -memory from node_modules; the other 17 installed with `npm install
// --ignore-scripts` into a temporary folder and started with dummy keys; see
// the fixture's `capturedAt`). Each server is replayed over stdio by
// test/fixtures/servers/replay-tools-server.mjs, so the host lists exactly
// those tools. Measured: the bytes of tool definitions Claude gets loaded up
// front (tools without defer_loading, plus the tool search tool) with tool
// search on, divided by the bytes of all definitions with tool search off.
//
// Part 2 — one server that lists 100,010 tools: connect and one chat turn,
// while the bench asks the host for something else every 25 ms and records
// how long each answer took and the longest event-loop stall.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Result } from '../shared/ipc/result.js';
import type { StdioServerConfig } from '../shared/model/config.js';
import { spawnFakeAnthropic } from '../test/fixtures/fake-anthropic-process.js';
import type { FakeAnthropicProcess } from '../test/fixtures/fake-anthropic-process.js';
import type { MessagesRequestBody } from '../test/fixtures/fake-anthropic.js';
import { benchHost } from './lib/host.js';
import type { BenchHost } from './lib/host.js';
import { ms, table } from './lib/measure.js';

// `npm run bench` runs from the repository's root.
const root = process.cwd();
const FIXTURE = join(root, 'bench/fixtures/real-server-tools.json');
const replay = join(root, 'test/fixtures/servers/replay-tools-server.mjs');
const manyTools = join(root, 'test/fixtures/servers/many-tools-server.mjs');

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

async function hostWith(
  servers: Record<string, StdioServerConfig>,
  fake: FakeAnthropicProcess,
): Promise<BenchHost> {
  const { host, api } = benchHost(servers);
  // Every tool call the bench's turns make is allowed once.
  host.onEvent((event, payload) => {
    if (event !== 'consentRequested') return;
    const { id } = payload as { id: string };
    void api.answerConsent({ id, answer: { decision: 'allow-once' } });
  });
  await host.loadConfig();
  value(await api.updateSettings({ baseUrl: fake.url }));
  value(await api.setApiKey({ key: 'sk-ant-bench-0000000000000000' }));
  return { host, api };
}

async function connectAll(running: BenchHost, names: readonly string[]): Promise<void> {
  await Promise.all(names.map(async (name) => value(await running.api.startServer({ name }))));
}

/** Sends one message in a new conversation and waits for the turn to end. */
async function turn(running: BenchHost, text: string): Promise<void> {
  const id = value(await running.api.createConversation({})).id;
  const { turnId } = value(await running.api.sendMessage({ conversationId: id, text }));
  await new Promise<void>((resolve, reject) => {
    const off = running.host.onEvent((event, payload) => {
      const state = payload as { turnId?: string; state?: string; error?: { message: string } };
      if (event !== 'turnState' || state.turnId !== turnId) return;
      if (state.state === 'done') {
        off();
        resolve();
      } else if (state.state === 'error' || state.state === 'stopped') {
        off();
        reject(new Error(`turn ended ${state.state ?? ''}: ${state.error?.message ?? ''}`));
      }
    });
  });
}

type ToolBody = NonNullable<MessagesRequestBody['tools']>[number];
const bytes = (tools: readonly ToolBody[]): number => tools.reduce((n, t) => n + JSON.stringify(t).length, 0);
const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
const tokens = (n: number): string => `~${Math.round(n / 4).toLocaleString('en-US')} tokens`;

async function realServers(): Promise<void> {
  const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
    capturedAt: string;
    servers: { name: string; package: string; version: string; tools: unknown[] }[];
  };
  const servers = Object.fromEntries(
    fixture.servers.map((s) => [
      s.name,
      { command: process.execPath, args: [replay, '--fixture', FIXTURE, '--server', s.name] },
    ]),
  );
  const fake = await spawnFakeAnthropic();
  const running = await hostWith(servers, fake);
  try {
    await connectAll(running, Object.keys(servers));
    const listed = value(await running.api.listServers({})).reduce((n, s) => n + s.tools.length, 0);

    value(await running.api.updateSettings({ toolSearch: { mode: 'off' } }));
    await turn(running, 'hello');
    const off = (await fake.messageRequests()).at(-1);
    value(await running.api.updateSettings({ toolSearch: { mode: 'auto' } }));
    await turn(running, 'hello');
    const on = (await fake.messageRequests()).at(-1);
    // Claude searches, loads github's create_issue and calls it; the next request has it loaded.
    await turn(running, 'call create_issue {"owner":"o","repo":"r","title":"t"}');
    const afterSearch = (await fake.messageRequests()).at(-1);

    const all = bytes(off?.tools ?? []);
    const loaded = (body: MessagesRequestBody | undefined) =>
      (body?.tools ?? []).filter((t) => t.defer_loading !== true);
    const upFront = bytes(loaded(on));
    const upFrontAfter = bytes(loaded(afterSearch));
    const body = (b: MessagesRequestBody | undefined) => JSON.stringify(b ?? {}).length;
    console.log(
      `Tool set: ${String(fixture.servers.length)} real servers, ${String(listed)} tools (captured ${fixture.capturedAt}): ${fixture.servers.map((s) => `${s.package}@${s.version}`).join(', ')}`,
    );
    table([
      ['measure', 'tool search off', 'tool search on', 'on ÷ off'],
      [
        'definitions loaded up front',
        `${kb(all)} (${tokens(all)})`,
        `${kb(upFront)} (${tokens(upFront)})`,
        (upFront / all).toFixed(4),
      ],
      [
        '… after one search loaded a tool',
        kb(all),
        `${kb(upFrontAfter)} (${tokens(upFrontAfter)})`,
        (upFrontAfter / all).toFixed(4),
      ],
      ['tools sent (deferred ones too)', String(off?.tools?.length ?? 0), String(on?.tools?.length ?? 0), ''],
      ['whole request body', kb(body(off)), kb(body(on)), (body(on) / body(off)).toFixed(2)],
    ]);
    console.log(
      `Target: up-front definition bytes with tool search ÷ without ≤ 0.15 → ${(upFront / all).toFixed(4)}`,
    );
  } finally {
    await running.host.dispose();
    await fake.stop();
  }
}

/** Runs `work` while asking the host for its app info every 25 ms and watching the event loop. */
async function whileProbing<T>(
  running: BenchHost,
  work: () => Promise<T>,
): Promise<{ result: T; maxAnswerMs: number; maxStallMs: number; answers: number; elapsedMs: number }> {
  let maxAnswerMs = 0;
  let answers = 0;
  const probing = { on: true };
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const probe = (async () => {
    while (probing.on) {
      const asked = performance.now();
      value(await running.api.getAppInfo({}));
      maxAnswerMs = Math.max(maxAnswerMs, performance.now() - asked);
      answers++;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    const elapsedMs = performance.now() - started;
    probing.on = false;
    await probe;
    return { result, maxAnswerMs, maxStallMs: delay.max / 1e6, answers, elapsedMs };
  } finally {
    probing.on = false;
    delay.disable();
    await probe;
  }
}

async function hugeServer(): Promise<void> {
  const fake = await spawnFakeAnthropic();
  const running = await hostWith({ huge: { command: process.execPath, args: [manyTools] } }, fake);
  try {
    // Connected and listed: the snapshot says how many tools the server listed.
    const connect = await whileProbing(running, async () => {
      await connectAll(running, ['huge']);
      while (value(await running.api.listServers({}))[0]?.toolsCapped === undefined) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    const snapshot = value(await running.api.listServers({}))[0];
    const chat = await whileProbing(running, () => turn(running, 'hello'));
    const body = (await fake.messageRequests()).at(-1);
    console.log('\nOne server listing 100,010 tools (test/fixtures/servers/many-tools-server.mjs):');
    table([
      [
        'phase',
        'took',
        'longest getAppInfo answer (asked every 25 ms)',
        'longest event-loop stall',
        'answers',
      ],
      [
        'connect (tools/list of 100,010)',
        ms(connect.elapsedMs),
        ms(connect.maxAnswerMs),
        ms(connect.maxStallMs),
        String(connect.answers),
      ],
      ['one chat turn', ms(chat.elapsedMs), ms(chat.maxAnswerMs), ms(chat.maxStallMs), String(chat.answers)],
    ]);
    console.log(
      `Kept ${String(snapshot?.tools.length ?? 0)} of ${String(snapshot?.toolsCapped?.listed ?? 0)} tools; the turn's request: ${String(body?.tools?.length ?? 0)} tools (${String((body?.tools ?? []).filter((t) => t.defer_loading === true).length)} deferred), ${kb(JSON.stringify(body ?? {}).length)}.`,
    );
    // A request that arrives (over IPC or the WebSocket) while the loop is busy waits for it:
    // the longest stall bounds how long any other request waited.
    const worst = Math.max(connect.maxAnswerMs, chat.maxAnswerMs, connect.maxStallMs, chat.maxStallMs);
    console.log(
      `Target: the host answers other requests within 2 s → the longest wait was ${ms(worst)} (${(worst / 2000).toFixed(2)} of the budget)`,
    );
  } finally {
    await running.host.dispose();
    await fake.stop();
  }
}

await realServers();
await hugeServer();
