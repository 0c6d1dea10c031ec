import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures/headless.js';
import { everythingEntry, openConnectedServer, openServers } from './flows/server-everything.js';

test.use({
  initialConfig: {
    mcpServers: { everything: { command: process.execPath, args: [everythingEntry, 'stdio'] } },
  },
});

async function openTab(page: Page, name: string) {
  await openConnectedServer(page, 'everything');
  const main = page.getByRole('main');
  await main.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
  return main;
}

test('browse resources, read one, attach it to chat, fill a template with completion', async ({
  app,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await openServers(page);
  const main = await openTab(page, 'Resources');
  // Resources and templates are counted apart, as the tab lists them.
  const list = main.getByRole('list', { name: 'Resources', exact: true });
  const templates = main.getByRole('list', { name: 'Resource templates' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  const resourceCount = await list.getByRole('listitem').count();
  const templateCount = await templates.getByRole('listitem').count();
  await expect(main.getByRole('tab', { name: /^Resources/ })).toContainText(
    `${String(resourceCount)} + ${String(templateCount)} template${templateCount === 1 ? '' : 's'}`,
  );
  await expect(main.locator('.facts__row').filter({ hasText: 'Offers' })).toContainText(
    `${String(resourceCount)} resources · ${String(templateCount)} resource template`,
  );

  await list.getByRole('button', { name: /features\.md/ }).click();
  await main.getByRole('button', { name: 'Read', exact: true }).click();
  const contents = main.getByRole('region', { name: 'Contents' });
  await expect(contents).toContainText('text/markdown');
  await expect(contents).toContainText('Resources');

  const attach = main.getByRole('button', { name: 'Attach to chat' });
  await attach.click();
  await expect(main.getByRole('button', { name: '✓ Attached to chat' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Subscribe, then let the server send updates: the resource is marked as changed.
  await main.getByRole('button', { name: 'Subscribe to updates' }).click();
  await expect(main.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
  await expect(main.getByText('Live: subscribed')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('resources-light.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('resources-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  await main.getByRole('tab', { name: /^Tools/ }).click();
  await main
    .getByRole('list', { name: 'Tools' })
    .getByRole('button', { name: /^toggle-subscriber-updates\b/ })
    .click();
  await main.getByRole('button', { name: 'Call tool' }).click();
  await expect(main.getByRole('region', { name: 'Result' })).toContainText(
    'Started simulated resource updated',
  );
  await main.getByRole('tab', { name: /^Resources/ }).click();
  await expect(list.getByRole('button', { name: /features\.md/ }).getByLabel('changed')).toBeVisible();
  // Back on the resource: still subscribed (same connection), and the change is shown with its time.
  await list.getByRole('button', { name: /features\.md/ }).click();
  await expect(main.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
  await expect(main.getByRole('status').filter({ hasText: 'on the server at' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('resource-updated.png') });

  // A template: fill its variable, read the expanded URI (binary content: size and type).
  await main
    .getByRole('list', { name: 'Resource templates' })
    .getByRole('button', { name: /Dynamic Blob Resource/ })
    .click();
  await main.getByRole('combobox', { name: 'resourceId' }).fill('12');
  await expect(main.getByText('demo://resource/dynamic/blob/12')).toBeVisible();
  await main.getByRole('button', { name: 'Read', exact: true }).click();
  await expect(main.getByRole('region', { name: 'Contents' })).toContainText(
    /Binary content, \d+ B of type text\/plain/,
  );
});

test('fill a prompt with completions and see its messages', async ({ app, page }, testInfo) => {
  await page.goto(app.url);
  await openServers(page);
  const main = await openTab(page, 'Prompts');
  await main
    .getByRole('list', { name: 'Prompts' })
    .getByRole('button', { name: /^completable-prompt/ })
    .click();

  const department = main.getByRole('combobox', { name: 'department' });
  await department.fill('E');
  const suggestions = main.getByRole('listbox', { name: 'Suggestions for department' });
  await expect(suggestions.getByRole('option')).toHaveText(['Engineering']);
  await page.screenshot({ path: testInfo.outputPath('prompt-suggestions.png') });
  await department.press('ArrowDown');
  await department.press('Enter');
  await expect(department).toHaveValue('Engineering');

  // The second argument's suggestions depend on the first (sent as context).
  const name = main.getByRole('combobox', { name: 'name' });
  await name.focus();
  await expect(main.getByRole('listbox', { name: 'Suggestions for name' }).getByRole('option')).toHaveText([
    'Alice',
    'Bob',
    'Charlie',
  ]);
  await main.getByRole('option', { name: 'Bob' }).click();
  await expect(name).toHaveValue('Bob');
  await page.screenshot({ path: testInfo.outputPath('prompt-completion.png'), fullPage: true });

  await main.getByRole('button', { name: 'Get prompt' }).click();
  await expect(main.getByRole('region', { name: 'Prompt messages' })).toContainText(
    'Please promote Bob to the head of the Engineering team.',
  );
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('prompt-dark.png'), fullPage: true });
});

test('roots: a typed path is checked by the host and stored as a file:// URI', async ({
  app,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await openConnectedServer(page, 'everything');
  const main = page.getByRole('main');
  // The tab strip works from the keyboard: End selects and focuses the last tab, arrows move back.
  await main.getByRole('tab', { name: /^Tools/ }).focus();
  await page.keyboard.press('End');
  await expect(main.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const rootsTab = main.getByRole('tab', { name: 'Roots' });
  await expect(rootsTab).toHaveAttribute('aria-selected', 'true');
  await expect(rootsTab).toBeFocused();
  await expect(main.getByText('No folders yet')).toBeVisible();

  const path = main.getByLabel('Folder path');
  await path.fill('relative/folder');
  await main.getByRole('button', { name: 'Add folder' }).click();
  await expect(main.getByRole('alert')).toContainText('Use an absolute path');

  const folder = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-root-'));
  await path.fill(folder);
  await main.getByRole('button', { name: 'Add folder' }).click();
  await expect(main.getByRole('list', { name: 'Roots' })).toContainText(folder);
  await page.screenshot({ path: testInfo.outputPath('roots.png'), fullPage: true });

  const saved = JSON.parse(readFileSync(app.configPath, 'utf8')) as {
    mcpServers: { everything: { roots?: string[] } };
  };
  expect(saved.mcpServers.everything.roots).toEqual([pathToFileURL(folder).href]);

  await main.getByRole('button', { name: `Remove ${folder}` }).click();
  await expect(main.getByText('No folders yet')).toBeVisible();
});
