import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusConfigs, isInstalled, readCorpus } from '../test/compat/corpus.js';
import { expect, test } from './fixtures/headless.js';
import { openServers } from './flows/server-everything.js';

// A new user's first hour: the Claude Desktop configuration of twenty-odd
// popular servers (the compatibility corpus, installed by `npm run test:compat`)
// pasted into the import dialog, confirmed once, all started together.
test.skip(!isInstalled(), 'the compatibility corpus is not installed: run `npm run test:compat` first');

test('a pasted Claude Desktop configuration of the whole corpus imports, and every server connects', async ({
  app,
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const corpus = readCorpus();
  const configs = corpusConfigs(mkdtempSync(join(tmpdir(), 'mcp-host-e2e-corpus-')));
  await page.goto(app.url);
  await openServers(page);
  await page.getByRole('button', { name: 'Import servers…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import servers' });
  await dialog.getByRole('radio', { name: /Paste JSON/ }).check();
  await dialog.getByLabel('Pasted configuration').fill(JSON.stringify({ mcpServers: configs }, null, 2));
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByRole('list', { name: 'Servers to import' }).getByRole('listitem')).toHaveCount(
    corpus.length,
  );
  await dialog.getByRole('button', { name: `Import ${String(corpus.length)} servers` }).click();
  await expect(dialog.getByRole('status')).toContainText(`Imported ${String(corpus.length)} servers`);
  await dialog.getByRole('button', { name: 'Close' }).click();

  const servers = page.getByRole('navigation', { name: 'Servers' });
  const entries = servers.getByRole('listitem');
  await expect(entries).toHaveCount(corpus.length);
  // Every one connects; none fails while the others start (each has its own line in the list).
  for (const server of corpus) {
    const entry = servers.getByRole('button', { name: new RegExp(`^${server.name} `) });
    await expect(entry, server.name).toContainText('Connected', { timeout: 180_000 });
  }
  await expect(servers.getByText('Failed')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('corpus-connected.png'), fullPage: true });
});
