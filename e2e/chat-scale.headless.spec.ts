import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures/chat.js';
import { composer, messages, sections, send, setUpClaude } from './flows/chat.js';
import { lightAndDark } from './flows/pictures.js';

const manyToolsServer = fileURLToPath(
  new URL('../test/fixtures/servers/many-tools-server.mjs', import.meta.url),
);

interface Block {
  type: string;
  text?: string;
  title?: string;
  source?: { type: string; media_type?: string; data?: string };
}
interface RecordedRequest {
  path: string;
  body: { messages?: { role: string; content: Block[] }[]; thinking?: { type: string } } | null;
}

async function messageRequests(baseUrl: string): Promise<NonNullable<RecordedRequest['body']>[]> {
  const response = await fetch(`${baseUrl}/_requests`);
  const requests = (await response.json()) as RecordedRequest[];
  return requests.filter((r) => r.path === '/v1/messages').flatMap((r) => (r.body ? [r.body] : []));
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAKklEQVR42mNkYPhfz0AEYBxVSF+FjIyMDP8ZGBgYGP4zEKdw1A0j0w0A7P8M/cxR0kAAAAAASUVORK5CYII=',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

test('attach files: pick, refuse one with a clear line, send as image and document blocks, see them in history', async ({
  app,
  fakeApi,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await setUpClaude(page, fakeApi.url, { servers: [] });
  await composer(page).fill('What is in these files?');
  const picker = page.getByLabel('Files to attach');
  await picker.setInputFiles([
    { name: 'dot.png', mimeType: 'image/png', buffer: PNG },
    { name: 'spec.pdf', mimeType: 'application/pdf', buffer: PDF },
    { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nhello') },
    { name: 'tool.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') },
  ]);
  const files = page.getByRole('list', { name: 'Files for your next message' });
  await expect(files.getByRole('listitem')).toHaveCount(3);
  await expect(page.getByRole('alert', { name: 'Files not attached' })).toHaveText(
    'tool.exe: this kind of file cannot be sent to Claude (images, PDFs and text files only).',
  );
  // The typed text is still there.
  await expect(composer(page)).toHaveValue('What is in these files?');
  await lightAndDark(page, testInfo, 'attachments-composer');
  // A file dropped on the composer joins them.
  const dropped = await page.evaluateHandle(
    "(() => { const d = new DataTransfer(); d.items.add(new File(['dropped text'], 'dropped.txt', { type: 'text/plain' })); return d; })()",
  );
  await composer(page).dispatchEvent('drop', { dataTransfer: dropped });
  await expect(files.getByRole('listitem')).toHaveCount(4);
  await files.getByRole('button', { name: 'Remove dropped.txt' }).click();
  await expect(files.getByRole('listitem')).toHaveCount(3);

  await composer(page).press('Enter');
  await expect(messages(page).getByText('You said: What is in these files?')).toBeVisible();
  await expect(files).toHaveCount(0);
  const sent = (await messageRequests(fakeApi.url)).at(-1)?.messages?.at(-1)?.content ?? [];
  expect(sent.map((b) => b.type)).toEqual(['image', 'document', 'document', 'text']);
  expect(sent[1]).toMatchObject({ title: 'spec.pdf', source: { media_type: 'application/pdf' } });
  expect(sent[2]).toMatchObject({ title: 'notes.md', source: { type: 'text', data: '# Notes\n\nhello' } });

  const history = messages(page);
  await expect(history.getByRole('img', { name: 'Attached image dot.png' })).toBeVisible();
  await expect(history.getByText('spec.pdf')).toBeVisible();
  await history.getByText('notes.md').click();
  await expect(history.getByText('# Notes')).toBeVisible();
  await lightAndDark(page, testInfo, 'attachments-history');
});

test('thinking streams into a collapsible block; edit and resend keeps the old version; export writes Markdown', async ({
  app,
  fakeApi,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await setUpClaude(page, fakeApi.url, { servers: [] });
  await send(page, 'First question');
  await expect(messages(page).getByText('You said: First question')).toBeVisible();

  // Thinking on for this conversation.
  await page.getByRole('button', { name: 'Settings of this conversation' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings of this conversation' });
  await dialog.getByLabel('Thinking').selectOption('adaptive');
  await dialog.getByLabel('Effort').selectOption('high');
  await dialog.getByLabel('Instructions for Claude (system prompt)').fill('Answer briefly.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  await send(page, 'Why is the sky blue?');
  const thinking = messages(page).getByRole('button', { name: /^Thinking/ });
  await expect(messages(page).getByText('You said: Why is the sky blue?')).toBeVisible();
  await expect(thinking).toHaveAttribute('aria-expanded', 'false');
  await thinking.click();
  await expect(messages(page).getByRole('region', { name: "Claude's thinking" })).toContainText(
    'Thinking about what was asked: "Why is the sky blue?"',
  );
  const body = (await messageRequests(fakeApi.url)).at(-1);
  expect(body?.thinking).toEqual({ type: 'adaptive' });
  await lightAndDark(page, testInfo, 'thinking');

  // Edit the first message: a new version, the old one a click away.
  const first = messages(page).getByRole('article', { name: 'You said' }).first();
  await first.hover();
  await first.getByRole('button', { name: 'Edit your message' }).click();
  const editor = messages(page).getByRole('textbox', { name: 'Edit your message' });
  await editor.fill('First question, rephrased');
  await editor.press('Enter');
  await expect(messages(page).getByText('You said: First question, rephrased')).toBeVisible();
  await expect(messages(page).getByText('Why is the sky blue?')).toHaveCount(0);
  const versions = messages(page).getByRole('group', { name: 'Versions of your message' });
  await expect(versions).toContainText('2 / 2');
  await lightAndDark(page, testInfo, 'edited-branch');
  await versions.getByRole('button', { name: 'Previous version' }).click();
  await expect(messages(page).getByText('You said: Why is the sky blue?')).toBeVisible();
  await expect(versions).toContainText('1 / 2');

  // Export the branch shown.
  const folder = mkdtempSync(join(tmpdir(), 'mcp-e2e-export-'));
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const exporter = page.getByRole('dialog', { name: 'Export conversation' });
  await exporter.getByLabel('Folder').fill('/no/such/folder');
  await exporter.getByRole('button', { name: 'Export' }).click();
  await expect(exporter.getByRole('alert')).toContainText('Cannot write to /no/such/folder');
  await exporter.getByLabel('Folder').fill(folder);
  await exporter.getByRole('button', { name: 'Export' }).click();
  const done = exporter.getByRole('status');
  await expect(done).toContainText(`Saved to ${folder}/`);
  const path = ((await done.textContent()) ?? '').replace('Saved to ', '');
  const markdown = readFileSync(path, 'utf8');
  expect(markdown).toContain('## You\n\nWhy is the sky blue?');
  expect(markdown).toContain('<details><summary>Thinking</summary>');
  await lightAndDark(page, testInfo, 'export-dialog');
});

test.describe('many tools', () => {
  test.use({
    initialConfig: {
      mcpServers: { many: { command: process.execPath, args: [manyToolsServer, '--count', '60'] } },
    },
  });

  test('a tool found by tool search shows the badge and the search', async ({
    app,
    fakeApi,
    page,
  }, testInfo) => {
    await page.goto(app.url);
    await setUpClaude(page, fakeApi.url, { servers: ['many'] });
    await send(page, 'call tool_7 {"note":"hi"}');
    const consent = page.getByRole('dialog', { name: /Allow Claude to run/ });
    await expect(consent).toBeVisible();
    await consent.getByRole('button', { name: 'Allow once' }).click();
    await expect(messages(page).getByText('The tool said: called tool_7')).toBeVisible();
    await expect(messages(page).getByText('found by search')).toBeVisible();
    await expect(
      messages(page).getByRole('note').filter({ hasText: 'Searched the tools for “tool_7”' }),
    ).toContainText('loaded tool_7 on many');
    await lightAndDark(page, testInfo, 'tool-search-badge');
  });
});

test.describe('a server with 100,010 tools', () => {
  test.use({
    initialConfig: { mcpServers: { huge: { command: process.execPath, args: [manyToolsServer] } } },
  });

  test('its tool list is capped with a warning and virtualized', async ({ app, page }, testInfo) => {
    await page.goto(app.url);
    await sections(page).getByRole('button', { name: 'Servers' }).click();
    const main = page.getByRole('main');
    await expect(main.getByText('Connected', { exact: true })).toBeVisible({ timeout: 45_000 });
    await main.getByRole('tab', { name: /^Tools/ }).click();
    await expect(main.getByRole('note').filter({ hasText: 'This server lists 100,010 tools' })).toContainText(
      'Only the first 1,000 are kept',
    );
    const list = main.getByRole('list', { name: 'Tools' });
    const rendered = await list.getByRole('listitem').count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(100);
    await expect(list.getByRole('listitem').first()).toHaveAttribute('aria-setsize', '1000');
    await lightAndDark(page, testInfo, 'big-tool-list');
    // Scrolled to the end, the last kept tool is there and can be opened.
    const last = list.getByRole('button', { name: /^tool_999\b/ });
    await list.getByRole('listitem').first().hover();
    await expect(async () => {
      await page.mouse.wheel(0, 20_000);
      await expect(last).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 20_000 });
    await last.click();
    await expect(main.getByRole('heading', { name: /tool_999/ })).toBeVisible();
    await expect(main.getByRole('checkbox', { name: 'Pinned for chat' })).not.toBeChecked();
  });
});
