import { expect, type Page } from '@playwright/test';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Path of server-everything's entry point, run with this Node as a stdio server. */
export const everythingEntry: string =
  require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

/** The server manager is one of the rail's sections (the app opens on Chat). */
export async function openServers(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Servers' }).click();
}

/** Opens the Servers section, selects the server `name` and waits until it is connected. */
export async function openConnectedServer(page: Page, name: string): Promise<void> {
  await openServers(page);
  await page
    .getByRole('navigation', { name: 'Servers' })
    .getByRole('button', { name: new RegExp(name) })
    .click();
  await expect(page.getByRole('main').getByText('Connected', { exact: true })).toBeVisible({
    timeout: 30_000,
  });
}

/**
 * The foundation's vertical slice as a person does it: add server-everything
 * through the form, watch it connect, open the echo tool, call it, read the
 * result. Shared by the headless (Chromium) and the Electron specs.
 */
export async function addEverythingAndCallEcho(
  page: Page,
  command: string = process.execPath,
): Promise<void> {
  await openServers(page);
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add server' });
  await dialog.getByLabel('Name').fill('everything');
  await dialog.getByLabel('Command').fill(command);
  await dialog.getByLabel('Arguments').fill(`${everythingEntry}\nstdio`);
  await dialog.getByRole('button', { name: 'Add and connect' }).click();
  await expect(dialog).toBeHidden();

  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 2, name: 'everything' })).toBeVisible();
  await expect(main.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(main.getByText('2025-11-25')).toBeVisible();
  await expect(main.getByText('mcp-servers/everything')).toBeVisible();

  const tools = main.getByRole('list', { name: 'Tools' });
  await expect(tools.getByRole('listitem')).not.toHaveCount(0);
  await tools.getByRole('button', { name: /^echo\b/ }).click();

  await main.getByLabel('Arguments (JSON)').fill('{"message": "hello from e2e"}');
  await main.getByRole('button', { name: 'Call tool' }).click();
  await expect(main.getByRole('region', { name: 'Result' })).toContainText('Echo: hello from e2e');
}

/** Arguments that break the tool's inputSchema are refused before anything is sent. */
export async function callEchoWithBadArguments(page: Page): Promise<void> {
  const main = page.getByRole('main');
  const args = main.getByLabel('Arguments (JSON)');
  await args.fill('{"message": ');
  await main.getByRole('button', { name: 'Call tool' }).click();
  await expect(main.getByRole('alert')).toContainText(/JSON/i);

  await args.fill('{"message": 42}');
  await main.getByRole('button', { name: 'Call tool' }).click();
  await expect(main.getByRole('alert')).toContainText(/message/);
}
