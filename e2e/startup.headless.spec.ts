import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures/headless.js';
import { openServers } from './flows/server-everything.js';

const require = createRequire(import.meta.url);
const memoryEntry = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');
const rawServer = fileURLToPath(new URL('../test/fixtures/servers/raw-server.mjs', import.meta.url));

/** A folder with an `npx` that takes 8 s (as a first download does), then runs server-memory. */
function slowNpxFolder(): string {
  const bin = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-bin-'));
  const npx = join(bin, 'npx');
  writeFileSync(
    npx,
    `#!/bin/sh\necho "npm warn exec The following package was not found and will be installed: memory@1" >&2\nsleep 8\nexec "${process.execPath}" "${memoryEntry}"\n`,
  );
  chmodSync(npx, 0o755);
  return bin;
}

test.describe('servers that start slowly or talk on stdout', () => {
  test.use({
    initialConfig: {
      mcpServers: {
        downloading: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
        noisy: {
          command: process.execPath,
          args: [rawServer, '--banner', 'Welcome to Noisy v1.2', '--banner', 'Listening on stdio'],
        },
        asks: {
          command: process.execPath,
          args: [rawServer, '--prompt', 'Ok to proceed? (y) '],
          connectTimeout: 4000,
        },
      },
    },
    extraEnv: { PATH: `${slowNpxFolder()}:${process.env.PATH ?? ''}`, MCP_HOST_SKIP_LOGIN_SHELL: '1' },
  });

  test('a slow npx server shows elapsed time and the first-download hint, then connects; a banner is a warning, not a failure', async ({
    app,
    page,
  }, testInfo) => {
    await page.goto(app.url);
    await openServers(page);
    const servers = page.getByRole('navigation', { name: 'Servers' });
    const main = page.getByRole('main');

    await servers.getByRole('button', { name: /downloading/ }).click();
    await expect(main.getByText('Starting…')).toBeVisible();
    await expect(main.getByText(/^\d+ s of up to 2 min$/)).toBeVisible();
    await expect(main.getByRole('status')).toContainText(
      'The first run of npx may be downloading the package',
    );
    await expect(servers.getByRole('button', { name: /downloading/ })).toContainText(/\d+ s/);
    await page.screenshot({ path: testInfo.outputPath('starting-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: testInfo.outputPath('starting-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(main.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(main.getByText('Starting…')).toBeHidden();

    await servers.getByRole('button', { name: /noisy/ }).click();
    await expect(main.getByText('Connected', { exact: true })).toBeVisible();
    await expect(main.getByText('Wrote 2 lines that are not MCP messages to stdout.')).toBeVisible();
    await main.getByText('First lines').click();
    await expect(main.getByText(/Welcome to Noisy v1\.2\s+Listening on stdio/)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('stray-stdout-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: testInfo.outputPath('stray-stdout-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await main.getByRole('tab', { name: 'Logs' }).click();
    await expect(main.locator('.log-line--stdout', { hasText: 'Welcome to Noisy v1.2' })).toBeVisible();

    await servers.getByRole('button', { name: /asks/ }).click();
    await expect(main.getByRole('alert')).toContainText('did not complete the MCP handshake within 4 s', {
      timeout: 15_000,
    });
    await expect(main.getByRole('alert')).toContainText('It is waiting after printing: "Ok to proceed? (y)"');
    await page.screenshot({ path: testInfo.outputPath('prompt-timeout.png') });
  });
});
