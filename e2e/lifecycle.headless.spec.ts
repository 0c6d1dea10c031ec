import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures/headless.js';
import { openConnectedServer } from './flows/server-everything.js';
import { lightAndDark } from './flows/pictures.js';

const rawServer = resolve('test/fixtures/servers/raw-server.mjs');
const marker = join(mkdtempSync(join(tmpdir(), 'mcp-host-e2e-marker-')), 'crash-on-start');

test.use({
  initialConfig: {
    mcpServers: {
      raw: { command: process.execPath, args: [rawServer, '--crash-on-start-if', marker] },
    },
  },
});

async function openRaw(page: Page, url: string) {
  await page.goto(url);
  await openConnectedServer(page, 'raw');
  return page.getByRole('main');
}

test('a long call shows its progress and can be cancelled', async ({ app, page }, testInfo) => {
  const main = await openRaw(page, app.url);
  await main
    .getByRole('list', { name: 'Tools' })
    .getByRole('button', { name: /^progress\b/ })
    .click();
  await main.getByLabel('Arguments (JSON)').fill('{"steps": 500, "intervalMs": 200}');
  await main.getByRole('button', { name: 'Call tool' }).click();

  const bar = main.getByRole('progressbar', { name: 'Calling progress' });
  await expect(bar).toBeVisible();
  await expect(main.getByText(/^\d+ of 500$/)).toBeVisible();
  await expect(main.getByText(/^step \d+$/)).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuenow', /\d+/);
  await lightAndDark(page, testInfo, 'call-progress', { fullPage: true });

  // Keyboard: focus moved from the disabled Call button to Cancel, and comes back when the call ends.
  const cancel = main.getByRole('button', { name: 'Cancel' });
  await expect(cancel).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(main.getByRole('alert')).toContainText('tools/call progress was cancelled');
  await expect(bar).toBeHidden();
  const callButton = main.getByRole('button', { name: 'Call tool' });
  await expect(callButton).toBeEnabled();
  await expect(callButton).toBeFocused();
});

test('a crashed server restarts with a countdown; after 5 crashes it stops; Restart brings it back', async ({
  app,
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const main = await openRaw(page, app.url);
  writeFileSync(marker, '');
  await main
    .getByRole('list', { name: 'Tools' })
    .getByRole('button', { name: /^crash\b/ })
    .click();
  await main.getByRole('button', { name: 'Call tool' }).click();
  await expect(main.getByText('Restarting…', { exact: true })).toBeVisible();
  const notice = main.getByRole('status');
  await expect(notice).toContainText(/Restarting (in \d+ s|now)\./);
  // The crash's reason and the server's last words (the call itself failed with them too).
  await expect(notice).toContainText('exited with code 3 unexpectedly');
  await expect(notice).toContainText('about to crash: simulated fatal error');
  await lightAndDark(page, testInfo, 'restarting', { fullPage: true });

  // Every restart fails while the marker exists: 1 + 2 + 4 + 8 s of backoff, then it gives up.
  await expect(main.getByText('Crashed 5 times — stopped.')).toBeVisible({ timeout: 60_000 });
  await expect(main.getByText(/so it was not restarted again/)).toBeVisible();
  await lightAndDark(page, testInfo, 'gave-up', { fullPage: true });

  rmSync(marker);
  await main.getByRole('button', { name: 'Restart' }).click();
  await expect(main.getByText('Connected', { exact: true })).toBeVisible();
  await expect(main.getByText('Crashed 5 times — stopped.')).toBeHidden();
});
