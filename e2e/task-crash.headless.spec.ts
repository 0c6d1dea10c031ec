import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { spawnFakeAnthropic } from '../test/fixtures/fake-anthropic-process.js';
import type { FakeAnthropicProcess } from '../test/fixtures/fake-anthropic-process.js';
import { startHeadlessProcess } from '../test/helpers/headless-process.js';
import type { HeadlessProcess } from '../test/helpers/headless-process.js';
import { startTaskHttp } from '../test/helpers/http-servers.js';
import type { HttpServerProcess } from '../test/helpers/http-servers.js';
import { consent, messages, scriptReplies, send, setUpClaude } from './flows/chat.js';

/**
 * A task running when the host dies (kill -9): the host started again on the
 * same data folder follows the task again and its result reaches Claude in
 * its conversation, once. The server is remote (task-http-server.mjs keeps
 * its tasks across sessions, as a real remote server does), so the task
 * outlives the host.
 */

interface RecordedRequest {
  path: string;
  body: { messages?: { role: string; content: { type: string; text?: string }[] | string }[] } | null;
}

/** The Messages API requests whose last user message carries a task result. */
async function taskDeliveries(baseUrl: string): Promise<RecordedRequest[]> {
  const requests = (await (await fetch(`${baseUrl}/_requests`)).json()) as RecordedRequest[];
  return requests.filter((r) => {
    const last = r.body?.messages?.at(-1);
    return (
      r.path === '/v1/messages' && JSON.stringify(last?.content ?? '').includes('[Task result from the host')
    );
  });
}

let host: HeadlessProcess | undefined;
let api: FakeAnthropicProcess | undefined;
let server: HttpServerProcess | undefined;
test.afterEach(async () => {
  await host?.stop();
  await api?.stop();
  await server?.stop();
});

test('kill -9 of the host while a task runs: after the restart the result reaches Claude in its conversation, once', async ({
  page,
}, testInfo) => {
  server = await startTaskHttp();
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-task-crash-'));
  writeFileSync(
    join(dir, 'mcp-servers.json'),
    JSON.stringify({ mcpServers: { research: { url: `${server.origin}/mcp` } } }),
  );
  api = await spawnFakeAnthropic();
  host = await startHeadlessProcess(dir);
  await page.goto(host.url);
  await setUpClaude(page, api.url, { servers: ['research'] });

  await scriptReplies(api.url, [
    { type: 'tool_use', toolSuffix: 'research', input: { seconds: 8 } },
    { type: 'text', text: 'The research runs; I will tell you when it is done.' },
  ]);
  await send(page, 'research the tides');
  await consent(page).getByRole('button', { name: 'Allow once' }).click();
  await expect(messages(page)).toContainText('The research runs; I will tell you when it is done.');
  const line = messages(page).getByRole('status', { name: 'Task of research' });
  await expect(line).toContainText('Working');

  // The host dies while the task runs on the server.
  const killed = host.child;
  const exited = new Promise((resolve) => killed.once('exit', resolve));
  killed.kill('SIGKILL');
  await exited;
  await expect(page.getByRole('status').filter({ hasText: 'The host is not reachable' })).toBeVisible({
    timeout: 15_000,
  });
  expect(await taskDeliveries(api.url)).toHaveLength(0);

  // Started again on the same data folder: the page comes back, the task is followed again, and
  // when it completes its result goes to Claude and the answer continues in the conversation.
  host = await startHeadlessProcess(dir);
  await expect(page.getByRole('status').filter({ hasText: 'The host was restarted' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(messages(page)).toContainText('The task finished', { timeout: 30_000 });
  await expect(messages(page)).toContainText('research done after 8 s');
  await page.screenshot({ path: testInfo.outputPath('task-after-crash.png') });
  const delivered = await taskDeliveries(api.url);
  expect(delivered).toHaveLength(1);
  expect(JSON.stringify(delivered[0]?.body?.messages?.at(-1)?.content)).toContain('research done after 8 s');

  // Once: a while later still one delivery, and one task result in the conversation.
  await page.waitForTimeout(1500);
  expect(await taskDeliveries(api.url)).toHaveLength(1);
  await expect(messages(page).getByText(/research done after 8 s/)).toHaveCount(1);
});
