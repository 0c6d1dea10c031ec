import { test, expect } from './fixtures/chat.js';
import { XSS_PAYLOADS } from '../test/helpers/renderer/xss-corpus.js';
import { composer, consent, messages, scriptReplies, sections, send, setUpClaude } from './flows/chat.js';
import { lightAndDark } from './flows/pictures.js';

test('set the key, chat, approve a tool call and see its result card; deny one with Esc', async ({
  app,
  fakeApi,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await expect(page.getByRole('region', { name: 'Set up Claude' })).toBeVisible();
  await lightAndDark(page, testInfo, 'no-key');
  await setUpClaude(page, fakeApi.url);

  await send(page, 'Hello there');
  await expect(messages(page)).toContainText('You said: Hello there');

  // A Markdown answer with a table and code comes back rendered.
  await send(page, 'Show me\n\n| col | val |\n|---|---|\n| a | 1 |');
  await expect(messages(page).getByRole('table').last()).toContainText('col');

  await send(page, 'call echo {"message": "hello from the chat e2e"}');
  const dialog = consent(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('everything');
  await expect(dialog.getByRole('region', { name: 'Arguments' })).toContainText(
    '"message": "hello from the chat e2e"',
  );
  await expect(dialog.getByRole('region', { name: 'Server hints' })).toContainText('The server says');
  // Deny has the focus, so a stray Enter would not run anything.
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
  await lightAndDark(page, testInfo, 'consent');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog).toBeHidden();

  const card = messages(page)
    .getByRole('button', { name: /echo on everything/ })
    .last();
  await expect(card).toContainText('Done');
  await card.click();
  await expect(messages(page).getByRole('region', { name: 'Result' }).last()).toContainText(
    'Echo: hello from the chat e2e',
  );
  await expect(messages(page)).toContainText('The tool said: Echo: hello from the chat e2e');
  await lightAndDark(page, testInfo, 'chat');

  // Deny path, by keyboard: Esc in the consent dialog denies.
  await send(page, 'call echo {"message": "do not run"}');
  await expect(consent(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(consent(page)).toBeHidden();
  await expect(
    messages(page)
      .getByRole('button', { name: /echo on everything/ })
      .last(),
  ).toContainText('Denied');
  await expect(messages(page)).not.toContainText('Echo: do not run');

  // Both decisions are in the audit trail.
  await sections(page).getByRole('button', { name: 'Settings' }).click();
  const audit = page.getByRole('table', { name: 'Audit trail' });
  await expect(audit).toContainText('Allowed once');
  await expect(audit).toContainText('Denied');
  await lightAndDark(page, testInfo, 'settings', { fullPage: true });
});

test('Stop ends a streaming answer; Esc in the composer stops too', async ({ chatPage: page }) => {
  await send(page, 'slow 400');
  const writing = page.getByRole('article', { name: 'Claude is writing' });
  await expect(writing).toContainText(/\w+ \w+ \w+/);
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(messages(page).getByText('Stopped', { exact: false }).first()).toBeVisible();
  await expect(writing).toBeHidden();
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();

  await send(page, 'slow 400');
  await expect(page.getByRole('article', { name: 'Claude is writing' })).toContainText(/\w+ \w+/);
  await composer(page).press('Escape');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Claude is writing' })).toBeHidden();
});

test('XSS payloads in a tool result are shown as text and never run', async ({ app, fakeApi, page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(app.url);
  await setUpClaude(page, fakeApi.url);

  const payload = [...XSS_PAYLOADS, '<img src=x onerror="window.__xss=1">'].join('\n');
  await send(page, `call echo ${JSON.stringify({ message: payload })}`);
  await consent(page).getByRole('button', { name: 'Allow once' }).click();
  const card = messages(page)
    .getByRole('button', { name: /echo on everything/ })
    .last();
  await expect(card).toContainText('Done');
  await card.click();
  // The tool's text (a <pre>) and the model's answer quoting it (Markdown) are both on screen.
  await expect(messages(page).getByRole('region', { name: 'Result' })).toContainText(
    '<script>alert(1)</script>',
  );
  await expect(messages(page)).toContainText('The tool said: Echo:');

  const log = messages(page);
  expect(await log.locator('script, iframe, object, embed, svg, img, form, style, base, meta').count()).toBe(
    0,
  );
  // The serialized DOM escapes "<" in text, so every tag in it is a real element.
  const html = await log.evaluate((root: { outerHTML: string }) => root.outerHTML);
  const risky = [...html.matchAll(/<[a-z][^>]*>/gi)]
    .map((tag) => tag[0])
    .filter(
      (tag) => /\son[a-z]+=/i.test(tag) || /\s(href|src|action|formaction)="(?!https?:|mailto:)/i.test(tag),
    );
  expect(risky).toEqual([]);
  expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test('API errors: a refused key leads to Settings; an overloaded API, after its retries, offers Retry', async ({
  fakeApi,
  chatPage: page,
}) => {
  await scriptReplies(fakeApi.url, [{ type: 'error', status: 401, message: 'invalid x-api-key' }]);
  await send(page, 'first try');
  const refused = page.getByRole('alert').filter({ hasText: 'The API key was refused (401)' });
  await expect(refused).toBeVisible();
  await expect(refused.getByRole('button', { name: 'Open Settings' })).toBeVisible();

  // The SDK retries 529 twice; the third answer ends the turn with an error the person can retry.
  const overloaded = { type: 'error', status: 529, retryAfterMs: 20 };
  await scriptReplies(fakeApi.url, [overloaded, overloaded, overloaded]);
  await send(page, 'second try');
  const busy = page.getByRole('alert').filter({ hasText: 'overloaded (529)' });
  await expect(busy).toBeVisible();
  await busy.getByRole('button', { name: 'Retry' }).click();
  // The failed turns' user messages are kept; the retried request carries both.
  await expect(messages(page).getByRole('article', { name: 'Claude said' }).last()).toContainText(
    /You said: first try\s+second try/,
  );
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a running tool shows its progress; an image shows inline; always-allow skips the dialog until revoked', async ({
  chatPage: page,
}) => {
  await send(page, 'call trigger-long-running-operation {"duration": 4, "steps": 4}');
  await consent(page).getByRole('button', { name: 'Allow once' }).click();
  const card = messages(page).getByRole('button', { name: /trigger-long-running-operation on everything/ });
  await expect(card).toContainText('Running');
  await expect(messages(page).getByRole('progressbar')).toBeVisible();
  await expect(card).toContainText('Done', { timeout: 30_000 });

  await send(page, 'call get-tiny-image {}');
  await consent(page).getByRole('radio', { name: 'Always allow get-tiny-image on everything' }).check();
  await consent(page).getByRole('button', { name: 'Always allow' }).click();
  const imageCard = messages(page).getByRole('button', { name: /get-tiny-image on everything/ });
  await expect(imageCard).toContainText('Done');
  await imageCard.click();
  const image = messages(page).getByRole('img', { name: /Image returned by the tool/ });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBeGreaterThan(0);

  // Always allowed: the next call runs without asking, and says so.
  await send(page, 'call get-tiny-image {}');
  const second = messages(page)
    .getByRole('button', { name: /get-tiny-image on everything/ })
    .last();
  await expect(second).toContainText('Done');
  await expect(second).toContainText('auto-allowed · always allowed');
  await expect(consent(page)).toBeHidden();

  // The rule is listed in Settings and can be revoked; then the tool asks again.
  await sections(page).getByRole('button', { name: 'Settings' }).click();
  const rules = page.getByRole('list', { name: 'Rules for everything' });
  await expect(rules).toContainText('get-tiny-image');
  await rules
    .getByRole('button', { name: 'Revoke “This tool, always” for get-tiny-image on everything' })
    .click();
  await expect(page.getByText('No rules: every tool call asks first.')).toBeVisible();
  await sections(page).getByRole('button', { name: 'Chat' }).click();
  await send(page, 'call get-tiny-image {}');
  await expect(consent(page)).toBeVisible();
  await consent(page).getByRole('button', { name: 'Deny' }).click();
});

test('conversations: search by text, rename in place, delete after confirming', async ({
  chatPage: page,
}) => {
  const list = page.getByRole('navigation', { name: 'Conversations' });

  await send(page, 'Tell me about penguins');
  await expect(messages(page)).toContainText('You said: Tell me about penguins');
  await list.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'Tell me about volcanoes');
  await expect(messages(page)).toContainText('You said: Tell me about volcanoes');
  await expect(list.getByRole('listitem')).toHaveCount(2);

  await list.getByRole('searchbox', { name: 'Search conversations' }).fill('penguins');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await list.getByRole('searchbox', { name: 'Search conversations' }).fill('');
  await expect(list.getByRole('listitem')).toHaveCount(2);

  const volcano = list.getByRole('listitem').filter({ hasText: 'volcanoes' });
  await volcano.getByRole('button', { name: /^Rename/ }).click();
  const title = list.getByRole('textbox', { name: 'Conversation title' });
  await expect(title).toBeFocused();
  await title.fill('Geology');
  await title.press('Enter');
  await expect(list.getByRole('listitem').filter({ hasText: 'Geology' })).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 2, name: 'Geology' })).toBeVisible();

  await list.getByRole('button', { name: 'Delete “Geology”' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete “Geology”?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).not.toContainText('Geology');
  await expect(messages(page)).toContainText('You said: Tell me about penguins');
});

test('an unsent draft survives a trip to another section', async ({ chatPage: page }) => {
  await composer(page).fill('half a thought\nand a second line');
  await sections(page).getByRole('button', { name: 'Servers' }).click();
  await sections(page).getByRole('button', { name: 'Chat' }).click();
  await expect(composer(page)).toHaveValue('half a thought\nand a second line');
});
