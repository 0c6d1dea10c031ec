import { readFileSync } from 'node:fs';
import { browseRegistry, expect, installLinkFromCli, test } from './flows/registry.js';

/**
 * The MCP registry and install links, as a person uses them in the page:
 * Browse → search → open an entry → fill its values → review the exact
 * command → install → it connects. The registry is the local fixture
 * (test/fixtures/registry/), whose npm entries point at packages installed
 * here, so `npx -y <package>@<version>` runs offline.
 */

test('search the registry, fill in an entry’s values, review the exact command, install, and see it connect', async ({
  app,
  registry,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await browseRegistry(page, registry.url);
  const list = page.getByRole('list', { name: 'Registry entries' });
  await expect(list.getByRole('listitem')).toHaveCount(30);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(45);
  await expect(page.getByRole('button', { name: 'Load more' })).toBeHidden();

  await page.getByRole('searchbox', { name: 'Search the registry' }).fill('everything');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  const entry = list.getByRole('listitem').first();
  await expect(entry).toContainText('Everything');
  await expect(entry).toContainText('2026.8.31');
  await expect(entry).toContainText('Local · npm');
  await expect(entry.getByRole('link', { name: /Repository/ })).toHaveAttribute(
    'href',
    'https://github.com/modelcontextprotocol/servers',
  );
  await page.screenshot({ path: testInfo.outputPath('browse.png') });
  await page.getByRole('searchbox', { name: 'Search the registry' }).fill('example');
  await expect(list.getByRole('listitem').first()).toContainText('Weather');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300); // colors change with a transition
  await page.screenshot({ path: testInfo.outputPath('browse-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('searchbox', { name: 'Search the registry' }).fill('everything');
  await expect(list.getByRole('listitem')).toHaveCount(1);

  await entry.getByRole('button', { name: 'Install Everything…' }).click();
  const dialog = page.getByRole('dialog', { name: /Install Everything/ });
  await expect(dialog).toContainText('npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio');
  // Before values: each variable and where its value will go.
  await expect(dialog.getByRole('list', { name: 'Environment' }).getByRole('listitem')).toHaveText([
    'EVERYTHING_API_KEY=<EVERYTHING_API_KEY>',
    'EVERYTHING_REGION=<EVERYTHING_REGION>',
  ]);
  await dialog.getByLabel('Server name').fill('everything');
  // The required secret is asked for, masked.
  const key = dialog.getByLabel('EVERYTHING_API_KEY');
  await expect(key).toHaveAttribute('type', 'password');
  await dialog.getByRole('button', { name: 'Review…' }).click();
  await expect(dialog.getByRole('alert')).toContainText('"EVERYTHING_API_KEY" is required');
  await key.fill('sk-e2e-secret-7731');
  await dialog.getByLabel('EVERYTHING_REGION').selectOption('us');
  await page.screenshot({ path: testInfo.outputPath('install-values.png') });
  await dialog.getByRole('button', { name: 'Review…' }).click();

  const command = dialog.getByTestId('install-command');
  await expect(command).toHaveText('npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio');
  // Each variable with its value; only the secret typed as one is masked.
  await expect(dialog.getByRole('list', { name: 'Environment variables' }).getByRole('listitem')).toHaveText([
    'EVERYTHING_API_KEY=••••••',
    'EVERYTHING_REGION=us',
  ]);
  await expect(dialog).toContainText('Secret values, kept apart from the configuration file');
  // No keychain here: the dialog says so instead of claiming encryption.
  await expect(dialog).toContainText('only obfuscated (not encrypted)');
  await expect(dialog).not.toContainText('Stored encrypted');
  await expect(dialog).not.toContainText('sk-e2e-secret-7731');
  await page.screenshot({ path: testInfo.outputPath('install-review.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300); // colors change with a transition
  await page.screenshot({ path: testInfo.outputPath('install-review-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await dialog.getByRole('button', { name: 'Install and start' }).click();
  await expect(dialog).toBeHidden();

  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 2, name: 'everything' })).toBeVisible();
  await expect(main.getByText('Connected', { exact: true })).toBeVisible({ timeout: 60_000 });
  const file = readFileSync(app.configPath, 'utf8');
  expect(file).toContain('${secret:ENV_EVERYTHING_API_KEY}');
  expect(file).not.toContain('sk-e2e-secret-7731');
});

test('an unreachable registry is one line with Retry, and Retry works', async ({ app, registry, page }) => {
  await page.goto(app.url);
  await browseRegistry(page, registry.url);
  await registry.setMode('error');
  await page.getByRole('searchbox', { name: 'Search the registry' }).fill('memory');
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText(`The registry at ${registry.url} answered 500 Internal Server ErrorRetry`);
  await registry.setMode('ok');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(alert).toBeHidden();
  await expect(page.getByRole('list', { name: 'Registry entries' })).toContainText('Memory');
});

test('an install link delivered through the CLI shows the exact command in the open page; closing it installs nothing', async ({
  app,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible();
  const entry = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory@2026.8.31'] };
  const link = `mcp-host://install?name=memory&config=${Buffer.from(JSON.stringify(entry)).toString('base64url')}`;
  const out = await installLinkFromCli(app.configPath, link);
  expect(out).toContain('Sent to the running MCP Host');

  const dialog = page.getByRole('dialog', { name: /Install memory/ });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('From an install link');
  await expect(dialog).toContainText('npx -y @modelcontextprotocol/server-memory@2026.8.31');
  await page.screenshot({ path: testInfo.outputPath('install-link.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(JSON.parse(readFileSync(app.configPath, 'utf8'))).toEqual({ mcpServers: {} });
});
