import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import type { Page } from '@playwright/test';
import { spawnFakeAnthropic } from '../test/fixtures/fake-anthropic-process.js';
import type { FakeAnthropicProcess } from '../test/fixtures/fake-anthropic-process.js';
import { startHeadlessProcess } from '../test/helpers/headless-process.js';
import type { HeadlessProcess } from '../test/helpers/headless-process.js';
import { everythingEntry, openServers } from './flows/server-everything.js';

/**
 * The page left open when the headless host dies (kill -9): it says the
 * truth while the host is gone, keeps what was streamed, and comes back by
 * itself when the host is started again on the same data folder (same
 * address: the token and port are kept per installation).
 */

const sections = (page: Page) => page.getByRole('navigation', { name: 'Sections' });
const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });

let host: HeadlessProcess | undefined;
let api: FakeAnthropicProcess | undefined;
test.afterEach(async () => {
  await host?.stop();
  await api?.stop();
});

test('kill -9 of the host with the page open: the page says so, keeps the partial answer, and reconnects after a restart', async ({
  page,
}, testInfo) => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-crash-'));
  writeFileSync(
    join(dir, 'mcp-servers.json'),
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [everythingEntry, 'stdio'] } },
    }),
  );
  api = await spawnFakeAnthropic();
  host = await startHeadlessProcess(dir);
  const address = host.url;
  await page.goto(address);

  // No keychain on a headless machine: the setup card and Settings say what is really done with the key.
  const setup = page.getByRole('region', { name: 'Set up Claude' });
  await expect(setup).toContainText('only obfuscated (not encrypted)');
  await expect(setup).not.toContainText('stored encrypted');
  // Claude set up against the fake API: base URL first, so the key is entered for that host.
  await page.getByRole('button', { name: 'Open Settings' }).click();
  await expect(page.getByText(/only obfuscated \(not encrypted\) in a file .* \(0600\)/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Base URL' }).fill(api.url);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Base URL saved.')).toBeVisible();
  await page.getByRole('textbox', { name: 'API key' }).fill('sk-ant-e2e-key-000011112222wxyz');
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByText('sk-…wxyz')).toBeVisible();
  await openServers(page);
  await expect(page.getByRole('main').getByText('Connected', { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('main').getByText(/^PID \d+$/)).toBeVisible();
  // Local servers run below normal CPU priority, and the view says so beside the PID.
  await expect(page.getByRole('main').getByText('lower CPU priority')).toBeVisible();

  // An answer that starts streaming and never finishes…
  const scripted = await fetch(`${api.url}/_script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ type: 'hang', text: 'This answer never fini' }]),
  });
  expect(scripted.ok).toBe(true);
  await sections(page).getByRole('button', { name: 'Chat' }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('second question');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(page.getByRole('article', { name: 'Claude is writing' })).toContainText(
    'This answer never fini',
  );

  // …and the host is killed while it streams.
  const killed = host.child;
  const exited = new Promise((resolve) => killed.once('exit', resolve));
  killed.kill('SIGKILL');
  await exited;

  const banner = page.getByRole('status').filter({ hasText: 'The host is not reachable' });
  await expect(banner).toBeVisible({ timeout: 15_000 });
  await expect(banner).toContainText('the servers it ran stopped with it');
  await expect(banner).toContainText('this page reconnects by itself');
  await expect(banner).not.toContainText('keep running');
  // What was streamed stays, and says it is not being written any more.
  const partial = page.getByRole('article', { name: 'Partial answer, cut off' });
  await expect(partial).toContainText('This answer never fini');
  await expect(partial).toContainText('Waiting for the host');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath('host-gone-chat.png') });
  // No "Connected", no pid of a dead process, no actions that cannot work.
  await openServers(page);
  const main = page.getByRole('main');
  await expect(main.getByText('Unknown', { exact: true })).toBeVisible();
  await expect(main.getByText('Connected', { exact: true })).toHaveCount(0);
  await expect(main.getByText(/^PID \d+$/)).toHaveCount(0);
  await expect(main.getByRole('button', { name: 'Restart' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add server' })).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath('host-gone-servers.png') });

  // Started again on the same data folder: same address, and the page comes back by itself.
  host = await startHeadlessProcess(dir);
  expect(host.home).toBe(new URL('/', address).href);
  const restarted = page.getByRole('status').filter({ hasText: 'The host was restarted' });
  await expect(restarted).toBeVisible({ timeout: 20_000 });
  await expect(main.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Add server' })).toBeEnabled();

  // The conversation says what happened and offers Retry; the partial text is still there, cut off.
  await sections(page).getByRole('button', { name: 'Chat' }).click();
  await expect(messages(page)).toContainText(
    'Interrupted: the host stopped before Claude finished answering',
  );
  // The partial text stays, marked cut off; the notice above says why, once (not again under the text).
  const cutOff = page.getByRole('article', { name: 'Partial answer, cut off' });
  await expect(cutOff).toContainText('This answer never fini');
  await expect(cutOff).not.toContainText('the host stopped before this answer was finished');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  // One notice says it; the turn status under it only offers Retry.
  await expect(messages(page).getByText(/^Interrupted:/)).toHaveCount(1);
  await expect(page.getByText(/while Claude was answering/)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('host-back-chat.png') });
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(messages(page)).toContainText('You said: second question');
  await restarted.getByRole('button', { name: 'Dismiss' }).click();
  await expect(restarted).toBeHidden();
});
