import { test, expect } from './fixtures/chat.js';
import { consent, messages, sections, send, setUpClaude } from './flows/chat.js';

async function script(baseUrl: string, replies: object[]): Promise<void> {
  const response = await fetch(`${baseUrl}/_script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(replies),
  });
  expect(response.ok).toBe(true);
}

test('a tool call runs as a task: its card and the Tasks panel show it live, another conversation chats meanwhile', async ({
  app,
  fakeApi,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await setUpClaude(page, fakeApi.url);

  await script(fakeApi.url, [
    { type: 'tool_use', toolSuffix: 'simulate-research-query', input: { topic: 'tides' } },
    // Taken by the other conversation, which answers while the task (four stages of a second) runs…
    { type: 'text', text: 'Hello back, meanwhile.' },
    // …then by the task's own conversation, once its result went to Claude.
    { type: 'text', text: 'The research on tides is done.' },
  ]);
  await send(page, 'research tides');
  const dialog = consent(page);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Allow once' }).click();

  // The card shows the task: its status, the server's message, elapsed time and Cancel.
  const line = messages(page).getByRole('status', { name: 'Task of simulate-research-query' });
  await expect(line).toContainText('Working');
  await expect(line).toContainText(/Gathering sources|Analyzing content/);
  await expect(line.getByRole('button', { name: 'Cancel task of simulate-research-query' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('task-card-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  await page.screenshot({ path: testInfo.outputPath('task-card-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // The Tasks panel lists it as running, across conversations.
  await sections(page).getByRole('button', { name: 'Tasks' }).click();
  const running = page.getByRole('region', { name: /Running/ });
  await expect(running).toContainText('simulate-research-query');
  await expect(running).toContainText('on everything');
  await page.screenshot({ path: testInfo.outputPath('tasks-panel-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  await page.screenshot({ path: testInfo.outputPath('tasks-panel-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // Another conversation answers while the task runs.
  await sections(page).getByRole('button', { name: 'Chat' }).click();
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'Hello meanwhile');
  await expect(messages(page)).toContainText('Hello back, meanwhile.');

  // The task ends, its result goes to Claude and the answer continues in its own conversation.
  await sections(page).getByRole('button', { name: 'Tasks' }).click();
  const recent = page.getByRole('region', { name: /Recent/ });
  await expect(recent).toContainText('Completed', { timeout: 20_000 });
  await recent.getByRole('button', { name: /^In “/ }).click();
  await expect(messages(page)).toContainText('The research on tides is done.');
  await expect(messages(page).getByRole('status', { name: 'Task of simulate-research-query' })).toContainText(
    'Completed',
  );
  await page.screenshot({ path: testInfo.outputPath('task-card-done-light.png') });
});

test('Cancel in the tool card cancels the task on the server', async ({ app, fakeApi, page }) => {
  await page.goto(app.url);
  await setUpClaude(page, fakeApi.url);
  await script(fakeApi.url, [
    { type: 'tool_use', toolSuffix: 'simulate-research-query', input: { topic: 'cancel me' } },
    { type: 'text', text: 'Understood, cancelled.' },
  ]);
  await send(page, 'research and cancel');
  await consent(page).getByRole('button', { name: 'Allow once' }).click();
  const line = messages(page).getByRole('status', { name: 'Task of simulate-research-query' });
  await expect(line).toContainText('Working');
  await line.getByRole('button', { name: 'Cancel task of simulate-research-query' }).click();
  await expect(line).toContainText('Cancelled');
  await expect(line.getByRole('button', { name: /Cancel task/ })).toHaveCount(0);
});
