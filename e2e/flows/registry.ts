import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';
import { test as headless } from '../fixtures/headless.js';
import { spawnRegistry } from '../../test/fixtures/registry/registry-process.js';
import type { RegistryProcess } from '../../test/fixtures/registry/registry-process.js';

/** The headless app plus the local MCP registry (test/fixtures/registry/) as its own process. */
export const test = headless.extend<{ registry: RegistryProcess }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  registry: async ({}, use) => {
    const registry = await spawnRegistry();
    await use(registry);
    await registry.stop();
  },
});

export { expect };

const sections = (page: Page) => page.getByRole('navigation', { name: 'Sections' });

/** Settings → MCP registry → the local registry's URL, then the Browse section. */
export async function browseRegistry(page: Page, registryUrl: string): Promise<void> {
  await sections(page).getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('textbox', { name: 'Registry URL' }).fill(registryUrl);
  const card = page.getByRole('region', { name: 'MCP registry' });
  await card.getByRole('button', { name: 'Save registry' }).click();
  await expect(card.getByText('Registry saved.')).toBeVisible();
  await sections(page).getByRole('button', { name: 'Browse' }).click();
  await expect(page.getByRole('list', { name: 'Registry entries' })).toBeVisible();
}

const run = promisify(execFile);

/**
 * `mcp-host install --link` from a terminal on the app's data folder (the
 * headless fixture's XDG_CONFIG_HOME is the config file's folder): it finds
 * the running shell and hands it the link.
 */
export async function installLinkFromCli(configPath: string, link: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['dist/cli/mcp-host.mjs', 'install', '--link', link], {
    env: { ...process.env, XDG_CONFIG_HOME: dirname(configPath) },
    timeout: 20_000,
  });
  return stdout;
}
