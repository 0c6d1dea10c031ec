import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures/headless.js';
import { openServers } from './flows/server-everything.js';

const prober = fileURLToPath(new URL('../test/fixtures/servers/sandbox-prober.mjs', import.meta.url));
const netProber = fileURLToPath(new URL('../test/fixtures/servers/sandbox-net-prober.mjs', import.meta.url));
const env = {
  PROBE_APP_FILE: '/nonexistent/app-file',
  PROBE_OUTSIDE: '/var/tmp/mcp-e2e-sandbox-escape.txt',
  PROBE_PORT: '9',
};

test.describe('the sandbox in the server view', () => {
  test.use({
    initialConfig: {
      mcpServers: {
        boxed: { command: process.execPath, args: [prober], env },
        free: { command: process.execPath, args: [prober], env, sandbox: { enabled: false } },
      },
    },
  });

  test('a sandboxed server shows what it may read, write and reach and what was blocked; an unconfined one says so', async ({
    app,
    page,
  }, testInfo) => {
    await page.goto(app.url);
    await openServers(page);
    const servers = page.getByRole('navigation', { name: 'Servers' });
    const main = page.getByRole('main');
    const fact = (label: string) =>
      main.locator('.facts__row').filter({ has: page.getByText(label, { exact: true }) });

    await servers.getByRole('button', { name: /boxed/ }).click();
    await expect(main.getByRole('heading', { name: 'boxed' })).toBeVisible();
    await expect(main.getByText('Connected', { exact: true }).first()).toBeVisible();
    await expect(main.locator('.server-header').getByText('Sandboxed', { exact: true })).toBeVisible();
    await expect(fact('May write')).toContainText('server-state/boxed-');
    await expect(fact('May write')).toContainText('/tmp (private)');
    await expect(fact('May reach')).toContainText('Allowed hosts only');
    await expect(main.getByRole('status').filter({ hasText: 'Sandbox blocked:' })).toContainText(
      'write /var/tmp/mcp-e2e-sandbox-escape.txt',
    );
    await expect(main.getByRole('status').filter({ hasText: 'Sandbox blocked:' })).toContainText(
      'connect to 127.0.0.1:9',
    );
    await page.screenshot({ path: testInfo.outputPath('sandboxed.png'), fullPage: true });

    await servers.getByRole('button', { name: /free/ }).click();
    await expect(main.getByRole('heading', { name: 'free' })).toBeVisible();
    await expect(main.locator('.server-header').getByText('Not sandboxed', { exact: true })).toBeVisible();
    await expect(main.getByText(/Not sandboxed: turned off for this server\./)).toBeVisible();

    // Its Settings tab: the switch is on, with the warning; turning it off sandboxes the server again.
    await main.getByRole('tab', { name: 'Settings' }).click();
    const unconfined = main.getByRole('switch', { name: 'Run without sandbox' });
    await expect(unconfined).toBeChecked();
    await expect(
      main.getByText(/can read your SSH keys, cloud credentials and browser profiles/),
    ).toBeVisible();
    await unconfined.press('Space');
    await expect(unconfined).not.toBeChecked();
    await expect(main.locator('.server-header').getByText('Sandboxed', { exact: true })).toBeVisible();
  });
});

test.describe('the network question of a sandboxed server', () => {
  test.use({
    initialConfig: {
      mcpServers: {
        netbox: {
          command: process.execPath,
          args: [netProber],
          env: { NET_PROBE_AT_START: 'e2e.example.com:443' },
        },
      },
    },
  });

  test('asks in the consent queue with Deny focused; Escape denies, and the block is shown', async ({
    app,
    page,
  }, testInfo) => {
    await page.goto(app.url);
    const dialog = page.getByRole('dialog', { name: /netbox wants to connect to e2e\.example\.com:443/ });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
    await expect(dialog.getByRole('button', { name: 'Always for this server' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeVisible();
    await expect(dialog).toContainText('adds e2e.example.com to this server’s allowed hosts');
    await page.screenshot({ path: testInfo.outputPath('network-question.png') });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await openServers(page);
    await page
      .getByRole('navigation', { name: 'Servers' })
      .getByRole('button', { name: /netbox/ })
      .click();
    const main = page.getByRole('main');
    await expect(main.getByRole('status').filter({ hasText: 'Sandbox blocked:' })).toContainText(
      'connect to e2e.example.com:443',
    );
  });
});
