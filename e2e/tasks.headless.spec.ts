import type { Page } from '@playwright/test';
import { test, expect } from './fixtures/chat.js';
import { composer, consent, messages, scriptReplies, sections, send } from './flows/chat.js';
import { lightAndDark } from './flows/pictures.js';

/**
 * Sends `text`; Claude (the fake API) calls server-everything's task tool with
 * `input`, the call is allowed once, and Claude's next reply is `then`.
 */
async function research(
  page: Page,
  apiUrl: string,
  text: string,
  input: object,
  then: object,
): Promise<void> {
  await scriptReplies(apiUrl, [{ type: 'tool_use', toolSuffix: 'simulate-research-query', input }, then]);
  await send(page, text);
  const dialog = consent(page);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Allow once' }).click();
}

test('a tool call runs as a task: the chat never waits, the card and the Tasks panel show it live, its result continues the answer', async ({
  fakeApi,
  chatPage: page,
}, testInfo) => {
  // The call, then Claude's answer to "the task started"; every later answer is the fake's default.
  await research(
    page,
    fakeApi.url,
    'research tides',
    { topic: 'tides' },
    {
      type: 'text',
      text: 'The research runs; I will report when it is done.',
    },
  );

  // The turn ended at once: the card says the call runs as a task, its line is live.
  await expect(messages(page)).toContainText('The research runs; I will report when it is done.');
  const card = messages(page).locator('.tool-card', { hasText: 'simulate-research-query' }).first();
  await expect(card).toContainText('Runs as a task');
  const line = messages(page).getByRole('status', { name: 'Task of simulate-research-query' });
  await expect(line).toContainText('Working');
  await expect(line).toContainText(/Gathering sources|Analyzing content/);
  await expect(line.getByRole('button', { name: 'Cancel task of simulate-research-query' })).toBeVisible();

  // The same conversation chats on while the task runs.
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await send(page, 'still there?');
  await expect(messages(page)).toContainText('You said: still there?');
  await expect(line).toContainText('Working');
  await card.scrollIntoViewIfNeeded();
  await lightAndDark(page, testInfo, 'task-card');

  // The Tasks panel lists it as running, across conversations.
  await sections(page).getByRole('button', { name: 'Tasks' }).click();
  const running = page.getByRole('region', { name: /Running/ });
  await expect(running).toContainText('simulate-research-query');
  await expect(running).toContainText('on everything');
  await lightAndDark(page, testInfo, 'tasks-panel');

  // Another conversation answers while the task runs.
  await sections(page).getByRole('button', { name: 'Chat' }).click();
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'Hello meanwhile');
  await expect(messages(page)).toContainText('You said: Hello meanwhile');

  // The task ends while the person is elsewhere: a notice leads to the conversation, where the answer continued.
  const notice = page.getByRole('status', { name: 'Finished tasks' });
  await expect(notice).toContainText(
    'Task “simulate-research-query” finished — the answer continues in “research tides”',
    {
      timeout: 20_000,
    },
  );
  await lightAndDark(page, testInfo, 'task-notice');
  await notice.getByRole('button', { name: 'Open conversation' }).click();
  await expect(notice).toBeHidden();
  await expect(messages(page)).toContainText('The task finished: # Research Report: tides');
  await expect(messages(page)).toContainText('Task result');
  await expect(line).toContainText('Completed');
  await expect(line).not.toContainText('Generating report');
  // The call's card and the task's result (folded), then the result opened.
  await lightAndDark(page, testInfo, 'task-card-done');
  await messages(page)
    .getByRole('button', { name: /^Task result/ })
    .click();
  await expect(messages(page)).toContainText('sent to Claude as the result of the earlier call');
});

test('Stop on a turn with a running task asks: Keep running, or Cancel tasks', async ({
  fakeApi,
  chatPage: page,
}, testInfo) => {
  const lines = messages(page).getByRole('status', { name: 'Task of simulate-research-query' });

  // Claude starts a task, then keeps writing (the stream hangs) until Stop.
  await research(
    page,
    fakeApi.url,
    'research and talk',
    { topic: 'kept' },
    { type: 'hang', text: 'While it runs, ' },
  );
  await expect(messages(page)).toContainText('While it runs,');
  await page.getByRole('button', { name: 'Stop' }).click();
  // The stream stopped at once; the question comes after.
  const ask = page.getByRole('alertdialog', { name: 'Cancel 1 running task?' });
  await expect(ask).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await lightAndDark(page, testInfo, 'stop-ask');
  // Keep running has the focus: Enter keeps the task.
  await expect(ask.getByRole('button', { name: 'Keep running' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ask).toBeHidden();
  await expect(lines.first()).toContainText('Working');
  // Kept running, it ends and its result continues the answer.
  await expect(messages(page)).toContainText('The task finished: # Research Report: kept', {
    timeout: 20_000,
  });

  // A second turn starts another task; Stop (Esc in the composer), then Cancel tasks cancels only that one.
  await research(
    page,
    fakeApi.url,
    'research again',
    { topic: 'dropped' },
    { type: 'hang', text: 'Another one runs, ' },
  );
  await expect(messages(page)).toContainText('Another one runs,');
  await composer(page).press('Escape');
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Cancel tasks' }).click();
  await expect(ask).toBeHidden();
  await expect(lines.nth(1)).toContainText('Cancelled');
  await expect(lines.first()).toContainText('Completed');
});

test('Cancel in the tool card cancels the task on the server', async ({ fakeApi, chatPage: page }) => {
  await research(
    page,
    fakeApi.url,
    'research and cancel',
    { topic: 'cancel me' },
    { type: 'text', text: 'Understood, cancelled.' },
  );
  const line = messages(page).getByRole('status', { name: 'Task of simulate-research-query' });
  await expect(line).toContainText('Working');
  await line.getByRole('button', { name: 'Cancel task of simulate-research-query' }).click();
  await expect(line).toContainText('Cancelled');
  await expect(line.getByRole('button', { name: /Cancel task/ })).toHaveCount(0);
});

test('a task that needs input (input_required) asks in the elicitation dialog; the answer reaches the server and Claude gets the result', async ({
  fakeApi,
  chatPage: page,
}, testInfo) => {
  await research(
    page,
    fakeApi.url,
    'research python',
    { topic: 'python', ambiguous: true },
    { type: 'text', text: 'The research runs.' },
  );
  await expect(messages(page)).toContainText('The research runs.');

  // The server's question comes as the usual elicitation form, while the chat stays free.
  const dialog = page.getByRole('dialog', { name: /everything asks for information/ });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await expect(dialog).toContainText('Which interpretation of the topic do you mean?');
  const line = messages(page).getByRole('status', { name: 'Task of simulate-research-query' });
  await expect(line).toContainText('Needs your input');
  await lightAndDark(page, testInfo, 'task-input-required');
  await dialog.getByLabel('Clarification', { exact: true }).selectOption({ label: 'Python snake species' });
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(dialog).toBeHidden();

  // The task finishes with the answer used; its result comes back to Claude in this conversation.
  await expect(line).toContainText('Completed', { timeout: 30_000 });
  await expect(messages(page)).toContainText('The task finished: # Research Report: python (snake)', {
    timeout: 20_000,
  });
});
