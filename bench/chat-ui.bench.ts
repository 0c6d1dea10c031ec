/**
 * Chat UI benchmark in Chromium, against the built headless app and the fake
 * Messages API (both started as processes, as a person would run them):
 *   1. open a 5,000-message conversation: from the click to the last message painted (target ≤ 500 ms);
 *   2. stream 4,000 tokens at a high rate: main-thread long tasks (target: none over 50 ms).
 * The conversation is seeded through the host's own ConversationStore into the
 * SQLite file the app then opens. One run; prints a table, asserts nothing.
 * Needs `npm run build` first.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright';
import type { Page } from 'playwright';
import { DATABASE_FILE_NAME } from '../electron/host/persistence/persistence.js';
import { ConversationStore } from '../electron/host/persistence/conversation-store.js';
import { openDatabase } from '../electron/host/persistence/database.js';

/** The few browser globals the in-page code uses (this file is type-checked with Node's libs, not the DOM's). */
interface PageElement {
  readonly textContent: string;
  getBoundingClientRect(): { top: number; bottom: number };
  click(): void;
}
interface PageGlobals {
  document: {
    querySelector(selector: string): PageElement | null;
    querySelectorAll(selector: string): Iterable<PageElement>;
  };
  requestAnimationFrame: (callback: () => void) => number;
  PerformanceObserver: new (callback: (list: { getEntries(): { duration: number }[] }) => void) => {
    observe(options: { type: string; buffered: boolean }): void;
  };
  __longTasks?: number[];
}

const MESSAGES = 5_000;
const STREAM_TOKENS = 4_000;
const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

/** A Markdown answer of the kind the model writes: prose, a list, sometimes code or a table. */
function answer(i: number): string {
  const parts = [`Answer ${i}: here is what I found about item **${i}**.`];
  if (i % 3 === 0) parts.push('- first point\n- second point with `code`\n- third point');
  if (i % 5 === 0) parts.push('```ts\nconst value = compute(' + String(i) + ');\nconsole.log(value);\n```');
  if (i % 7 === 0) parts.push('| key | value |\n|---|---|\n| a | 1 |\n| b | 2 |');
  return parts.join('\n\n');
}

/** The host's own read of the conversation (ConversationStore.messages), timed in this process. */
function timeStoreRead(dataDir: string, title: string): number {
  const db = openDatabase(join(dataDir, DATABASE_FILE_NAME));
  const store = new ConversationStore(db);
  const id = store.list().find((c) => c.title === title)?.id ?? '';
  const start = performance.now();
  const count = store.messages(id).length;
  const elapsed = performance.now() - start;
  db.close();
  if (count !== MESSAGES) throw new Error(`expected ${MESSAGES} messages, read ${count}`);
  return elapsed;
}

function seed(dataDir: string): { big: string; small: string } {
  const db = openDatabase(join(dataDir, DATABASE_FILE_NAME));
  const store = new ConversationStore(db);
  const big = store.create('Five thousand messages');
  db.transaction(() => {
    for (let i = 1; i <= MESSAGES; i++) {
      const turnId = `t${Math.ceil(i / 2)}`;
      const last = i === MESSAGES;
      if (i % 2 === 1) {
        store.addMessage(big.id, { turnId, role: 'user', blocks: [{ type: 'text', text: `Question ${i}` }] });
      } else {
        store.addMessage(big.id, {
          turnId,
          role: 'assistant',
          blocks: [{ type: 'text', text: last ? 'The very last message of the bench.' : answer(i) }],
          stopReason: 'end_turn',
          usage: {
            inputTokens: 100,
            outputTokens: 40,
            cacheCreationInputTokens: 0,
            cacheReadInputTokens: 0,
            costUsd: 0.0009,
          },
          model: 'claude-sonnet-4-5',
        });
      }
    }
  })();
  // Created last, so it is the newest: the app opens it first and the big one is not loaded before the timing.
  const small = store.create('Small conversation');
  store.addMessage(small.id, { turnId: 's', role: 'user', blocks: [{ type: 'text', text: 'hello' }] });
  db.close();
  return { big: big.title, small: small.title };
}

/** Starts a process and resolves with the first match of `pattern` on its stdout. */
function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
): Promise<[ChildProcess, string]> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match) resolve([child, match[1] ?? match[0]]);
    });
    child.once('exit', (code) => {
      reject(new Error(`${args.join(' ')} exited with ${String(code)}: ${out}`));
    });
  });
}

async function setUp(page: Page, fakeUrl: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('textbox', { name: 'API key' }).fill('sk-ant-bench-0000000000000000');
  await page.getByRole('button', { name: 'Save key' }).click();
  await page.getByText('sk-…0000').waitFor();
  await page.getByRole('textbox', { name: 'Base URL' }).fill(fakeUrl);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Base URL saved.').waitFor();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Chat' }).click();
}

/**
 * Clicks the conversation inside the page and waits, frame by frame, until
 * the marker text is on screen; then one more frame so it has been painted.
 * Everything happens in the page, so no round trip to Playwright is timed.
 */
function timeOpen(page: Page, title: string, marker: string): Promise<number> {
  return page.evaluate(
    ({ title, marker }) =>
      new Promise<number>((resolve, reject) => {
        const { document, requestAnimationFrame } = globalThis as unknown as PageGlobals;
        const button = [...document.querySelectorAll('.conv-item__open')].find((b) =>
          b.textContent.includes(title),
        );
        if (!button) {
          reject(new Error(`no conversation "${title}"`));
          return;
        }
        const start = performance.now();
        button.click();
        const check = () => {
          const scroller = document.querySelector('.conversation__scroller');
          const hit = [...document.querySelectorAll('.message')].find((m) => m.textContent.includes(marker));
          if (scroller && hit) {
            const box = hit.getBoundingClientRect();
            const view = scroller.getBoundingClientRect();
            if (box.bottom > view.top && box.top < view.bottom) {
              // The frame that shows it: resolve after it is painted.
              requestAnimationFrame(() => {
                setTimeout(() => {
                  resolve(performance.now() - start);
                }, 0);
              });
              return;
            }
          }
          if (performance.now() - start > 30_000) reject(new Error('the last message never appeared'));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    { title, marker },
  );
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'mcp-host-bench-'));
  const env = { ...process.env, XDG_CONFIG_HOME: root };
  // Where the app (NodePlatform, XDG_CONFIG_HOME=root) keeps its data.
  const appDataDir = join(root, 'MCP Host');
  mkdirSync(appDataDir, { recursive: true });
  const configPath = join(root, 'mcp-servers.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: {} }));

  const seedStart = performance.now();
  const titles = seed(appDataDir);
  const seedMs = performance.now() - seedStart;

  const [fake, fakeUrl] = await startProcess(
    ['test/fixtures/fake-anthropic-server.mjs', '--port', '0'],
    env,
    /FAKE_ANTHROPIC_URL=(\S+)/,
  );
  const [app, appUrl] = await startProcess(
    ['dist/cli/mcp-host.mjs', 'serve', '--port', '0', '--config', configPath],
    env,
    /(http:\/\/127\.0\.0\.1:\d+\/login\?code=[\w.-]+)/,
  );
  const browser = await chromium.launch({
    ...(CHROMIUM !== undefined ? { executablePath: CHROMIUM } : {}),
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(appUrl);
    await setUp(page, fakeUrl);
    await page.getByRole('button', { name: new RegExp(`^${titles.small}`) }).click();
    await page.getByText('hello', { exact: true }).waitFor();

    // 1. Open the big conversation (twice: cold, then again after switching away).
    const openCold = await timeOpen(page, titles.big, 'The very last message of the bench.');
    await page.getByRole('button', { name: new RegExp(`^${titles.small}`) }).click();
    await page.getByText('hello', { exact: true }).waitFor();
    const openWarm = await timeOpen(page, titles.big, 'The very last message of the bench.');
    const rendered = await page.locator('.messages__row').count();

    // 2. Stream 4,000 tokens (about 4 characters each) as fast as the fake sends them.
    await page.getByRole('button', { name: new RegExp(`^${titles.small}`) }).click();
    const words = Array.from({ length: STREAM_TOKENS }, (_, i) =>
      i % 80 === 79 ? 'end.\n\n' : i % 400 === 200 ? '\n\n```js\nconst x = 1;\n```\n\n' : 'wxyz ',
    );
    const text = words.join('');
    await fetch(`${fakeUrl}/_script`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ type: 'text', text, chunk: 4, delayMs: 1 }]),
    });
    await page.evaluate(() => {
      const w = globalThis as unknown as PageGlobals;
      const tasks: number[] = [];
      w.__longTasks = tasks;
      new w.PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push(entry.duration);
      }).observe({ type: 'longtask', buffered: false });
    });
    const streamStart = performance.now();
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('stream please');
    await composer.press('Enter');
    await page.getByRole('article', { name: 'Claude is writing' }).waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 120_000 });
    const streamMs = performance.now() - streamStart;
    const longTasks = await page.evaluate(() => (globalThis as unknown as PageGlobals).__longTasks ?? []);
    const maxLongTask = longTasks.length > 0 ? Math.max(...longTasks) : 0;

    const storeRead = timeStoreRead(appDataDir, titles.big);
    const rows: [string, string, string][] = [
      ['seed 5,000 messages into SQLite (host store)', `${seedMs.toFixed(0)} ms`, ''],
      [
        'open 5,000-message conversation, cold',
        `${openCold.toFixed(0)} ms`,
        `${(openCold / 500).toFixed(2)}× of 500 ms target`,
      ],
      ['  of which: the host store reads 5,000 messages (same code)', `${storeRead.toFixed(0)} ms`, ''],
      [
        'open it again (after switching away)',
        `${openWarm.toFixed(0)} ms`,
        `${(openWarm / 500).toFixed(2)}× of 500 ms target`,
      ],
      ['message rows in the DOM after opening', String(rendered), `of ${MESSAGES}`],
      [
        `stream ${STREAM_TOKENS} tokens (${text.length} chars, 4-char deltas)`,
        `${streamMs.toFixed(0)} ms`,
        '',
      ],
      ['long tasks (>50 ms) while streaming', String(longTasks.length), 'target 0'],
      ['longest long task', `${maxLongTask.toFixed(0)} ms`, longTasks.length > 0 ? 'target < 50 ms' : '—'],
    ];
    // Long tasks are wall-clock: on a busy machine a short task stretches while the renderer waits for a core.
    rows.push(['load average (1 min) at the end, cores shared', loadavg()[0]?.toFixed(1) ?? '?', '']);
    console.log('\nchat-ui bench (Chromium, headless app, fake Messages API)');
    for (const [what, value, ratio] of rows)
      console.log(`  ${what.padEnd(58)} ${value.padStart(9)}  ${ratio}`);
  } finally {
    await browser.close();
    app.kill('SIGTERM');
    fake.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(root, { recursive: true, force: true });
  }
}

// No top-level await: the bench runner may bundle to CommonJS.
main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
