import type { Page } from '@playwright/test';
import { test, expect } from './fixtures/chat.js';
import { composer, messages, sections } from './flows/chat.js';
import { openConnectedServer } from './flows/server-everything.js';
import { lightAndDark } from './flows/pictures.js';

const FEATURES_DOC = 'demo://resource/static/document/features.md';
const chips = (page: Page) => page.getByRole('list', { name: 'Attached to your next message' });

interface SentBlock {
  type: string;
  text?: string;
}
interface RecordedRequest {
  path: string;
  body: { messages?: { role: string; content: SentBlock[] }[] } | null;
}

/** The text blocks of the last user message the fake API received. */
async function lastUserTexts(baseUrl: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/_requests`);
  const requests = (await response.json()) as RecordedRequest[];
  const last = requests.filter((r) => r.path === '/v1/messages').at(-1);
  const user = last?.body?.messages?.at(-1);
  expect(user?.role).toBe('user');
  return (user?.content ?? []).filter((b) => b.type === 'text').map((b) => b.text ?? '');
}

/** On the Servers view: Resources tab, features.md, "Attach to chat". */
async function attachFeaturesDoc(page: Page): Promise<void> {
  const main = page.getByRole('main');
  await main.getByRole('tab', { name: /^Resources/ }).click();
  await main
    .getByRole('list', { name: 'Resources', exact: true })
    .getByRole('button', { name: /features\.md/ })
    .click();
  await main.getByRole('button', { name: 'Attach to chat' }).click();
  await expect(main.getByRole('button', { name: '✓ Attached to chat' })).toBeVisible();
}

test('attach a resource from the Resources tab: a chip, sent to Claude with the message, kept in the history', async ({
  fakeApi,
  chatPage: page,
}, testInfo) => {
  await openConnectedServer(page, 'everything');

  await attachFeaturesDoc(page);
  await sections(page).getByRole('button', { name: 'Chat' }).click();
  const chip = chips(page).getByRole('listitem');
  await expect(chip).toHaveCount(1);
  await expect(chip).toContainText('features.md');
  await expect(chip).toContainText('everything');
  await composer(page).fill('What does this file list?');
  await lightAndDark(page, testInfo, 'chat-chips');
  await composer(page).fill('');

  // A chip can be removed by keyboard and attached again.
  await chip.getByRole('button', { name: /^Remove features\.md/ }).focus();
  await page.keyboard.press('Enter');
  await expect(chips(page)).toBeHidden();
  await expect(composer(page)).toBeFocused();
  await sections(page).getByRole('button', { name: 'Servers' }).click();
  await attachFeaturesDoc(page);
  await sections(page).getByRole('button', { name: 'Chat' }).click();
  await expect(chips(page).getByRole('listitem')).toHaveCount(1);

  await composer(page).fill('What does this file list?');
  await composer(page).press('Enter');
  await expect(messages(page)).toContainText('You said:');
  // Claude got the resource's text, wrapped with its URI, before the typed text.
  const [resource, typed] = await lastUserTexts(fakeApi.url);
  expect(resource).toContain(`<resource server="everything" uri="${FEATURES_DOC}"`);
  expect(resource?.length ?? 0).toBeGreaterThan(200);
  expect(typed).toBe('What does this file list?');
  // The chip is gone; the history says what went with the message, and can show it.
  await expect(chips(page)).toBeHidden();
  const attached = messages(page).getByRole('group').filter({ hasText: FEATURES_DOC });
  await expect(attached).toContainText('Attached');
  await attached.getByText(FEATURES_DOC, { exact: true }).click();
  await expect(attached.locator('pre')).toContainText('<resource server="everything"');
  await attached.scrollIntoViewIfNeeded();
  await lightAndDark(page, testInfo, 'chat-attached-history');
});

test('type "/", pick a prompt, fill an argument with completion, insert and send', async ({
  fakeApi,
  chatPage: page,
}, testInfo) => {
  await composer(page).fill('/');
  const list = page.getByRole('listbox', { name: 'Prompts of all servers' });
  await expect(list.getByRole('option', { name: /completable-prompt/ })).toBeVisible();
  await composer(page).pressSequentially('compl');
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(composer(page)).toBeFocused();
  await lightAndDark(page, testInfo, 'chat-prompt-picker');

  // Esc closes the picker and keeps the text; typing "/" again opens it.
  await composer(page).press('Escape');
  await expect(list).toBeHidden();
  await expect(composer(page)).toHaveValue('/compl');
  await composer(page).fill('');
  await composer(page).pressSequentially('/compl');
  await expect(list.getByRole('option', { name: /completable-prompt/ })).toBeVisible();

  await composer(page).press('Enter');
  const form = page.getByRole('dialog', { name: 'Prompt completable-prompt' });
  const department = form.getByRole('combobox', { name: 'department' });
  await expect(department).toBeFocused();
  await department.fill('E');
  await expect(
    form.getByRole('listbox', { name: 'Suggestions for department' }).getByRole('option'),
  ).toHaveText(['Engineering']);
  await department.press('ArrowDown');
  await department.press('Enter');
  await expect(department).toHaveValue('Engineering');
  const name = form.getByRole('combobox', { name: 'name' });
  await name.fill('B');
  await expect(form.getByRole('listbox', { name: 'Suggestions for name' }).getByRole('option')).toHaveText([
    'Bob',
  ]);
  await form.getByRole('option', { name: 'Bob' }).click();
  await expect(name).toHaveValue('Bob');
  await lightAndDark(page, testInfo, 'chat-prompt-form');
  await form.getByRole('button', { name: 'Insert' }).click();

  // The prompt's user text is in the composer, editable, and focus is back there.
  await expect(form).toBeHidden();
  await expect(composer(page)).toHaveValue('Please promote Bob to the head of the Engineering team.');
  await expect(composer(page)).toBeFocused();
  await composer(page).press('End');
  await composer(page).pressSequentially(' Thanks!');
  await composer(page).press('Enter');
  await expect(messages(page)).toContainText(
    'You said: Please promote Bob to the head of the Engineering team.',
  );
  expect(await lastUserTexts(fakeApi.url)).toEqual([
    'Please promote Bob to the head of the Engineering team. Thanks!',
  ]);
  await expect(composer(page)).toHaveValue('');
});

test('an inserted prompt with an embedded resource goes as a chip and reaches Claude with the resource', async ({
  fakeApi,
  chatPage: page,
}, testInfo) => {
  await composer(page).fill('/resource-prompt');
  await composer(page).press('Enter');
  const form = page.getByRole('dialog', { name: 'Prompt resource-prompt' });
  await form.getByRole('combobox', { name: 'resourceType' }).fill('Text');
  await form.getByRole('combobox', { name: 'resourceId' }).fill('2');
  await form.getByRole('button', { name: 'Insert' }).click();

  const chip = chips(page).getByRole('listitem');
  await expect(chip).toContainText('resource-prompt');
  await expect(chip).toContainText('2 messages');
  // The prompt ends with the resource, so nothing is left for the text box: the person writes their own line.
  await expect(composer(page)).toHaveValue('');
  await composer(page).fill('Be brief.');
  await lightAndDark(page, testInfo, 'chat-prompt-chip');
  await composer(page).press('Enter');
  await expect(messages(page)).toContainText('You said:');
  // In the server's order: its text, its embedded resource, then the person's line.
  const [intro, embedded, typed] = await lastUserTexts(fakeApi.url);
  expect(intro).toContain('This prompt includes the Text resource with id: 2');
  expect(embedded).toMatch(/^<resource uri="demo:\/\/resource\/dynamic\/text\/2">/);
  expect(typed).toBe('Be brief.');
  await expect(chips(page)).toBeHidden();
  await expect(messages(page).getByRole('group').filter({ hasText: '/resource-prompt' })).toHaveCount(2);
});
