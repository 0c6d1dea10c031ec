import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test, expect } from './fixtures/headless.js';
import { openServers } from './flows/server-everything.js';
import { chooseBundle, dropBundle } from './flows/bundles.js';
import {
  echoManifest,
  echoManifestV2,
  packBundle,
  selfSignedCertificate,
  signBundle,
  tamper,
} from '../test/helpers/bundles.js';
import { tempDir } from '../test/helpers/servers.js';

/**
 * Installing a server from an MCP bundle in the page, against the real
 * headless shell: choose the file (uploaded to the host), read what it is and
 * who signed it, fill its settings, install, see it connect and answer with
 * those settings; update it by dropping a newer file on the window; uninstall.
 */

const stored = (path: string) =>
  (JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> })
    .mcpServers;

test('install a bundle, fill its settings, see it connect; update by drag and drop; uninstall', async ({
  app,
  page,
}, testInfo) => {
  const [v1, v2] = await Promise.all([
    packBundle(echoManifest('1.0.0')),
    packBundle(echoManifestV2('2.0.0')),
  ]);
  const root = tempDir();
  writeFileSync(join(root, 'notes.txt'), 'x');
  await page.goto(app.url);
  await openServers(page);

  await chooseBundle(page, v1);
  const dialog = page.getByRole('dialog', { name: 'Install “Settings Echo”?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Not signed.')).toBeVisible();
  await expect(dialog.getByText(/server\/index\.mjs" --root \$\{user_config\.root\}/)).toBeVisible();
  // Each variable the bundle sets, with its value (a setting as its placeholder).
  await expect(dialog.getByRole('list', { name: 'Environment variables' }).getByRole('listitem')).toHaveText([
    'ECHO_API_KEY=${user_config.api_key}',
    'ECHO_GREETING=${user_config.greeting}',
    'ECHO_VERSION=1.0.0',
  ]);
  await expect(dialog.getByText('show_settings')).toBeVisible();
  await expect(dialog.getByText(/Receives the secrets you enter for "API key"/)).toBeVisible();
  const key = dialog.getByLabel('API key');
  await expect(key).toHaveAttribute('type', 'password');

  // Install without the required settings: each is named, nothing is sent.
  await dialog.getByRole('button', { name: 'Install' }).click();
  await expect(dialog.getByText('Required')).toHaveCount(2);
  await key.fill('sk-e2e-secret');
  await dialog.getByLabel('Folder').fill(root);
  await dialog.getByLabel('Greeting').fill('hello from e2e');
  await page.screenshot({ path: testInfo.outputPath('bundle-install.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('bundle-install-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await dialog.getByRole('button', { name: 'Install' }).click();
  await expect(dialog).toBeHidden();

  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 2, name: 'settings-echo' })).toBeVisible();
  await expect(main.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(main.getByText(/Installed from the bundle settings-echo, version 1\.0\.0/)).toBeVisible();
  expect(readFileSync(app.configPath, 'utf8')).not.toContain('sk-e2e-secret');
  expect(stored(app.configPath)['settings-echo']?.bundle).toEqual({ id: 'settings-echo', version: '1.0.0' });

  // The tool proves each setting reached the server.
  await main
    .getByRole('list', { name: 'Tools' })
    .getByRole('button', { name: /^show_settings/ })
    .click();
  await main.getByRole('button', { name: 'Call tool' }).click();
  const result = main.getByRole('region', { name: 'Result' });
  await expect(result).toContainText('"apiKey":"sk-e2e-secret"');
  await expect(result).toContainText('"greeting":"hello from e2e"');
  await expect(result).toContainText('"files":["notes.txt"]');
  await page.screenshot({ path: testInfo.outputPath('bundle-server.png'), fullPage: true });

  // Update: drop the newer file onto the window; only the new setting is asked for.
  await dropBundle(page, v2);
  const update = page.getByRole('dialog', { name: 'Update “Settings Echo”?' });
  await expect(update).toBeVisible();
  await expect(update.getByText(/Updates the installed version 1\.0\.0 to 2\.0\.0/)).toBeVisible();
  await expect(update.getByLabel('API key')).toHaveValue('');
  await expect(update.getByLabel('API key')).toHaveAttribute('placeholder', 'Stored — leave empty to keep');
  await expect(update.getByLabel('Greeting')).toHaveValue('hello from e2e');
  await update.getByLabel(/Region/).fill('eu-west');
  await page.screenshot({ path: testInfo.outputPath('bundle-update.png'), fullPage: true });
  await update.getByRole('button', { name: 'Update' }).click();
  await expect(update).toBeHidden();
  await expect(main.getByText(/version 2\.0\.0/)).toBeVisible();
  await expect(main.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
  await main
    .getByRole('list', { name: 'Tools' })
    .getByRole('button', { name: /^show_settings/ })
    .click();
  await main.getByRole('button', { name: 'Call tool' }).click();
  await expect(main.getByRole('region', { name: 'Result' })).toContainText('"apiKey":"sk-e2e-secret"');
  await expect(main.getByRole('region', { name: 'Result' })).toContainText('"region":"eu-west"');

  // Uninstall: gone from the list, the file and the data folder.
  await main.getByRole('button', { name: 'Uninstall' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Uninstall “settings-echo”?' });
  await confirm.getByRole('button', { name: 'Uninstall' }).click();
  await expect(confirm).toBeHidden();
  await expect(
    page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /settings-echo/ }),
  ).toHaveCount(0);
  expect(stored(app.configPath)).toEqual({});
  const bundles = join(dirname(app.configPath), 'MCP Host', 'bundles');
  expect(existsSync(bundles) ? readdirSync(bundles).filter((n) => n !== '.incoming') : []).toEqual([]);
});

test('a tampered bundle is shown as invalid and cannot be installed; a file that is not a bundle is one line', async ({
  app,
  page,
}, testInfo) => {
  const signed = await packBundle(echoManifest('1.0.0'));
  signBundle(signed, selfSignedCertificate());
  tamper(signed);
  await page.goto(app.url);
  await openServers(page);

  await chooseBundle(page, signed);
  const dialog = page.getByRole('dialog', { name: '“Settings Echo” cannot be installed' });
  await expect(dialog.getByRole('alert')).toHaveText(
    'Invalid signature: the file was changed after it was signed. This bundle cannot be installed.',
  );
  await expect(dialog.getByRole('button', { name: 'Install' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('bundle-invalid.png'), fullPage: true });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  const notBundle = join(tempDir(), 'notes.mcpb');
  writeFileSync(notBundle, 'not a zip');
  await dropBundle(page, notBundle);
  const failed = page.getByRole('dialog', { name: 'Install from bundle' });
  await expect(failed.getByRole('alert')).toHaveText(
    'This file is not a valid bundle: it is not a zip archive',
  );
  await page.screenshot({ path: testInfo.outputPath('bundle-not-a-bundle.png'), fullPage: true });
  await failed.getByRole('button', { name: 'Close' }).click();
  expect(stored(app.configPath)).toEqual({});
});
