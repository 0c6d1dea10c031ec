import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures/headless.js';
import { everythingEntry, openConnectedServer, openServers } from './flows/server-everything.js';

const everything = { command: process.execPath, args: [everythingEntry, 'stdio'] };

const stored = (path: string): Record<string, Record<string, unknown>> =>
  (JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> })
    .mcpServers;

async function openConnected(page: Page, url: string, name: string): Promise<void> {
  await page.goto(url);
  await openConnectedServer(page, name);
}

test.describe('with server-everything configured', () => {
  test.use({ initialConfig: { mcpServers: { everything } } });

  test('disable a tool, then edit and rename the server', async ({ app, page }, testInfo) => {
    await openConnected(page, app.url, 'everything');
    const main = page.getByRole('main');

    // Disable echo: marked in the list, refused by the host, stored in disabledTools.
    const toggle = main.getByRole('switch', { name: 'echo enabled' });
    await expect(toggle).toBeChecked();
    await toggle.click();
    await expect(toggle).not.toBeChecked();
    const tools = main.getByRole('list', { name: 'Tools' });
    await expect(tools.getByRole('button', { name: /^echo\b.*Disabled$/ })).toBeVisible();
    await tools.getByRole('button', { name: /^echo\b/ }).click();
    await main.getByLabel('Arguments (JSON)').fill('{"message": "hi"}');
    await main.getByRole('button', { name: 'Call tool' }).click();
    await expect(main.getByRole('alert')).toContainText('Tool "echo" of server "everything" is disabled');
    expect(stored(app.configPath).everything?.disabledTools).toEqual(['echo']);
    await page.screenshot({ path: testInfo.outputPath('tools-toggle.png') });

    // Edit: add an env variable and rename; the server restarts under its new name.
    await main.getByRole('tab', { name: 'Settings' }).click();
    await main.getByRole('button', { name: 'Edit…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit “everything”' });
    await expect(dialog.getByLabel('Command')).toHaveValue(process.execPath);
    await dialog.getByLabel('Name').fill('everything 2');
    await dialog.getByLabel('Environment').fill('GREETING=hello');
    await page.screenshot({ path: testInfo.outputPath('edit-form.png') });
    await dialog.getByRole('button', { name: 'Save and restart' }).click();
    await expect(dialog).toBeHidden();
    await expect(main.getByRole('heading', { level: 2, name: 'everything 2' })).toBeVisible();
    await expect(main.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
    expect(stored(app.configPath)).toEqual({
      'everything 2': { ...everything, env: { GREETING: 'hello' }, disabledTools: ['echo'] },
    });

    // Disable the whole server from Settings: stopped and marked disabled.
    await main.getByRole('tab', { name: 'Settings' }).click();
    await main.getByRole('switch', { name: 'Enabled' }).click();
    await expect(main.getByText('Disabled', { exact: true }).first()).toBeVisible();
    expect(stored(app.configPath)['everything 2']?.disabled).toBe(true);
  });

  test('logs: lifecycle and server messages with levels, filter, search, copy, set level', async ({
    app,
    page,
    context,
  }, testInfo) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openConnected(page, app.url, 'everything');
    const main = page.getByRole('main');
    await main.getByRole('tab', { name: 'Logs' }).click();
    const lines = main.getByRole('list', { name: /^Log lines/ });
    await expect(lines).toContainText(/Connected to mcp-servers\/everything .*protocol 2025-11-25/);

    await main.getByLabel('Server log level').selectOption('debug');
    await expect(lines).toContainText('Log level set to debug');

    // Turn on server-everything's simulated logging through its tool.
    await main.getByRole('tab', { name: /Tools/ }).click();
    await main
      .getByRole('list', { name: 'Tools' })
      .getByRole('button', { name: /^toggle-simulated-logging\b/ })
      .click();
    await main.getByRole('button', { name: 'Call tool' }).click();
    await expect(main.getByRole('region', { name: 'Result' })).toBeVisible();
    await main.getByRole('tab', { name: 'Logs' }).click();
    const serverLine = lines.locator('.log-line--server').first();
    await expect(serverLine).toBeVisible({ timeout: 20_000 });

    await main.getByLabel('From').selectOption('host');
    await expect(
      main.getByRole('list', { name: 'Log lines (filtered)' }).locator('.log-line--server'),
    ).toHaveCount(0);
    await main.getByLabel('From').selectOption('');
    await main.getByLabel('Search logs').fill('Log level set');
    await expect(main.getByRole('list', { name: 'Log lines (filtered)' }).getByRole('listitem')).toHaveCount(
      1,
    );
    await main.getByRole('button', { name: 'Copy' }).click();
    await expect(main.getByRole('status').filter({ hasText: 'Copied 1 line' })).toBeVisible();
    const clip = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(clip).toMatch(/INFO host Log level set to debug$/);
    await main.getByLabel('Search logs').fill('');
    await page.screenshot({ path: testInfo.outputPath('logs.png') });
  });
});

test.describe('raw JSON editor', () => {
  test.use({ initialConfig: { mcpServers: { everything } } });

  test('shows each error with its key path and line, never writes invalid JSON, saves valid JSON', async ({
    app,
    page,
  }, testInfo) => {
    await page.goto(app.url);
    await openServers(page);
    const before = readFileSync(app.configPath, 'utf8');
    await page.getByRole('button', { name: 'Edit config file' }).click();
    const dialog = page.getByRole('dialog', { name: 'Configuration file' });
    const editor = dialog.getByLabel('Configuration JSON');
    await expect(editor).toHaveValue(before);

    await editor.fill(
      '{\n  "mcpServers": {\n    "bad": { "command": 42 },\n    "web": { "url": "ftp://x" }\n  }\n}',
    );
    const problems = dialog.getByRole('list', { name: 'Problems' });
    await expect(problems).toContainText('Line 3');
    await expect(problems).toContainText('mcpServers.bad.command');
    await expect(problems).toContainText('Line 4');
    await expect(problems).toContainText('mcpServers.web.url');
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
    await editor.press('Control+s');
    await page.screenshot({ path: testInfo.outputPath('raw-errors.png') });
    expect(readFileSync(app.configPath, 'utf8')).toBe(before);

    await editor.fill('{ "mcpServers": { "bad": ');
    await expect(dialog.getByText(/Invalid JSON/)).toBeVisible();
    expect(readFileSync(app.configPath, 'utf8')).toBe(before);

    const next = JSON.stringify({ mcpServers: { again: everything } }, null, 2);
    await editor.fill(next);
    await expect(dialog.getByText('Valid configuration.')).toBeVisible();
    await editor.press('Control+s');
    await expect(dialog).toBeHidden();
    expect(readFileSync(app.configPath, 'utf8')).toBe(next);
    const servers = page.getByRole('navigation', { name: 'Servers' });
    await expect(servers.getByRole('button', { name: /again/ })).toBeVisible();
    await expect(servers.getByRole('button', { name: /everything/ })).toHaveCount(0);
  });
});

test.describe('import', () => {
  test.use({
    initialConfig: { mcpServers: { everything } },
    homeFiles: {
      '.cursor/mcp.json': JSON.stringify({
        mcpServers: { everything: { ...everything, env: { API_TOKEN: 'from-cursor' } }, fresh: everything },
      }),
    },
  });

  test('preview a Cursor file found in its known place, rename a conflict, import', async ({
    app,
    page,
  }, testInfo) => {
    await page.goto(app.url);
    await openServers(page);
    await page.getByRole('button', { name: 'Import servers…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import servers' });
    await expect(dialog.getByRole('radio', { name: /^Cursor/ })).toBeChecked();
    await expect(dialog.getByRole('radio', { name: /^Claude Desktop/ })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Preview' }).click();

    const list = dialog.getByRole('list', { name: 'Servers to import' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    const conflict = list.getByRole('listitem').filter({ hasText: 'Name exists' });
    await expect(conflict).toContainText('Environment: API_TOKEN');
    await expect(dialog).not.toContainText('from-cursor');
    await expect(conflict.getByRole('checkbox')).not.toBeChecked();
    await conflict.getByRole('checkbox').check();
    await expect(conflict.getByText('"everything" already exists; rename or skip')).toBeVisible();
    await conflict.getByLabel('Import as').fill('everything-cursor');
    await page.screenshot({ path: testInfo.outputPath('import-preview.png') });
    await dialog.getByRole('button', { name: 'Import 2 servers' }).click();
    await expect(dialog.getByRole('status')).toContainText('Imported 2 servers: everything-cursor, fresh');
    await dialog.getByRole('button', { name: 'Close' }).click();

    const servers = page.getByRole('navigation', { name: 'Servers' });
    await expect(servers.getByRole('button', { name: /everything-cursor/ })).toBeVisible();
    expect(Object.keys(stored(app.configPath))).toEqual(['everything', 'everything-cursor', 'fresh']);
    expect(stored(app.configPath)['everything-cursor']?.env).toEqual({ API_TOKEN: 'from-cursor' });
  });

  test('pasted VS Code JSON asks for its inputs, password masked', async ({ app, page }) => {
    await page.goto(app.url);
    await openServers(page);
    await page.getByRole('button', { name: 'Import servers…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import servers' });
    await dialog.getByRole('radio', { name: /Paste JSON/ }).check();
    await dialog.getByLabel('Pasted configuration').fill(
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'key', description: 'API key', password: true }],
        servers: { vs: { type: 'stdio', ...everything, env: { KEY: '${input:key}' } } },
      }),
    );
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const key = dialog.getByLabel('API key');
    await expect(key).toHaveAttribute('type', 'password');
    await dialog.getByRole('button', { name: 'Import 1 server' }).click();
    await expect(dialog.getByText('A value is needed')).toBeVisible();
    expect(Object.keys(stored(app.configPath))).toEqual(['everything']);
    await key.fill('s3cret');
    await dialog.getByRole('button', { name: 'Import 1 server' }).click();
    await expect(dialog.getByRole('status')).toContainText('Imported one server: vs');
    expect(stored(app.configPath).vs?.env).toEqual({ KEY: 's3cret' });
  });
});
