import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures/headless.js';
import { openServers } from './flows/server-everything.js';
import { startEverythingHttp } from '../test/helpers/http-servers.js';

const modern = fileURLToPath(new URL('../test/fixtures/servers/modern-server.mjs', import.meta.url));

test.describe('remote servers and protocol eras', () => {
  // The remote servers run for the length of each test, on free ports.
  test.use({
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    initialConfig: async ({}, use) => {
      const [streamable, sse] = await Promise.all([
        startEverythingHttp('streamableHttp'),
        startEverythingHttp('sse'),
      ]);
      await use({
        mcpServers: {
          'remote-http': { url: `${streamable.origin}/mcp` },
          'remote-sse': { url: `${sse.origin}/sse` },
          modern: { command: process.execPath, args: [modern] },
        },
      });
      await Promise.all([streamable.stop(), sse.stop()]);
    },
  });

  const expected: [string, string | undefined, RegExp][] = [
    ['remote-http', 'Streamable HTTP', /2024–2025 era.*fully supported, nothing to change/],
    ['remote-sse', 'HTTP+SSE (legacy transport)', /2024–2025 era/],
    ['modern', undefined, /2026-07-28\s*modern era/],
  ];

  for (const scheme of ['light', 'dark'] as const) {
    test(`each server shows the transport it used and the era it negotiated (${scheme})`, async ({
      app,
      page,
    }, testInfo) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(app.url);
      await openServers(page);
      const servers = page.getByRole('navigation', { name: 'Servers' });
      const main = page.getByRole('main');
      for (const [name, transport, era] of expected) {
        await servers.getByRole('button', { name: new RegExp(name) }).click();
        await expect(main.getByRole('heading', { name })).toBeVisible();
        await expect(main.getByText('Connected', { exact: true }).first()).toBeVisible();
        const fact = (label: string) =>
          main.locator('.facts__row').filter({ has: page.getByText(label, { exact: true }) });
        const protocol = fact('Protocol');
        await expect(protocol).toContainText(era);
        const row = fact('Transport');
        if (transport === undefined) await expect(row).toHaveCount(0);
        else await expect(row).toContainText(transport);
        if (name === 'remote-sse') {
          await page.screenshot({ path: testInfo.outputPath(`remote-sse-${scheme}.png`), fullPage: true });
        }
      }
    });
  }
});
