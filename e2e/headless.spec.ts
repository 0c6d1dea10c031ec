import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures/headless.js';
import {
  addEverythingAndCallEcho,
  callEchoWithBadArguments,
  everythingEntry,
  openServers,
} from './flows/server-everything.js';

test('add server-everything through the form, see its tools, call echo', async ({ app, page }, testInfo) => {
  await page.goto(app.url);
  await addEverythingAndCallEcho(page);
  await page.screenshot({ path: testInfo.outputPath('server-view.png'), fullPage: true });
  // The form's server was stored in the mcpServers shape.
  const saved = JSON.parse(readFileSync(app.configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
  expect(saved.mcpServers.everything).toEqual({
    command: process.execPath,
    args: [everythingEntry, 'stdio'],
  });

  await callEchoWithBadArguments(page);
});

test('the page is refused without its token', async ({ app, page }) => {
  const response = await page.goto(app.home);
  expect(response?.status()).toBe(401);
});

test.describe('bad input keeps the app running', () => {
  test.use({
    initialConfig: {
      mcpServers: {
        everything: { command: process.execPath, args: [everythingEntry, 'stdio'] },
        ghost: { command: 'mcp-host-no-such-command' },
        quitter: {
          command: process.execPath,
          args: ['-e', 'console.error("missing API_KEY"); process.exit(2)'],
        },
        chatty: {
          command: process.execPath,
          args: ['-e', 'console.log("Listening..."); setInterval(() => {}, 1e3)'],
          connectTimeout: 3000,
        },
      },
    },
  });

  const reasons: [string, string][] = [
    ['ghost', 'Command not found: "mcp-host-no-such-command"'],
    ['quitter', 'exited with code 2 before completing the MCP handshake. Last stderr: missing API_KEY'],
    ['chatty', 'did not complete the MCP handshake within 3 s'],
  ];

  test('each failing server shows its one-line reason while the other stays connected', async ({
    app,
    page,
  }) => {
    await page.goto(app.url);
    await openServers(page);
    const servers = page.getByRole('navigation', { name: 'Servers' });
    const main = page.getByRole('main');
    for (const [name, reason] of reasons) {
      await servers.getByRole('button', { name: new RegExp(name) }).click();
      await expect(main.getByRole('heading', { level: 2, name })).toBeVisible();
      await expect(main.getByRole('alert')).toContainText(reason);
    }
    await servers.getByRole('button', { name: /everything/ }).click();
    await expect(main.getByText('Connected', { exact: true })).toBeVisible();
  });
});

test.describe('an invalid config file', () => {
  test.use({ initialConfig: '{"mcpServers": {"x": {"command": 42}}}' });

  test('is reported, not overwritten', async ({ app, page }) => {
    await page.goto(app.url);
    await expect(page.getByRole('alert').filter({ hasText: 'could not be loaded' })).toContainText(
      'mcpServers.x',
    );
    expect(readFileSync(app.configPath, 'utf8')).toBe('{"mcpServers": {"x": {"command": 42}}}');
  });
});
