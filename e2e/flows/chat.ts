import { expect, type Page } from '@playwright/test';

export const sections = (page: Page) => page.getByRole('navigation', { name: 'Sections' });
export const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
export const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
/** The tool consent dialog. */
export const consent = (page: Page) => page.getByRole('dialog', { name: /Allow Claude to run/ });

/**
 * From a fresh app to a working chat: the key saved in Settings, the base URL
 * pointed at the fake Messages API and the key allowed for that host (it was
 * entered for the default one), then each named server seen connected (none:
 * don't wait), and back in the chat.
 */
export async function setUpClaude(
  page: Page,
  baseUrl: string,
  { servers = ['everything'] }: { servers?: readonly string[] } = {},
): Promise<void> {
  await page.getByRole('button', { name: 'Open Settings' }).click();
  await expect(page.getByText('Not set')).toBeVisible();
  await page.getByRole('textbox', { name: 'API key' }).fill('sk-ant-e2e-key-000011112222wxyz');
  await page.getByRole('button', { name: 'Save key' }).click();
  // The host answers with a hint only; the key itself never comes back.
  await expect(page.getByText('sk-…wxyz')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Replace key' })).toHaveValue('');
  await page.getByRole('textbox', { name: 'Base URL' }).fill(baseUrl);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Base URL saved.')).toBeVisible();
  // The key was entered for the default host: the new one gets it only when allowed, by name.
  await expect(page.getByText('Not sent to this host')).toBeVisible();
  await page
    .getByRole('region', { name: 'Anthropic API key' })
    .getByRole('button', { name: `Send my key to ${new URL(baseUrl).origin}` })
    .click();
  await expect(page.getByText('sk-…wxyz')).toBeVisible();
  await expect(page.getByText('Not sent to this host')).toBeHidden();
  // Servers connect in the background; a turn offers only the tools of connected servers.
  if (servers.length > 0) {
    await sections(page).getByRole('button', { name: 'Servers' }).click();
    for (const name of servers) {
      await expect(page.getByRole('button', { name: new RegExp(`^${name}\\s*Connected`) })).toBeVisible({
        timeout: 30_000,
      });
    }
  }
  await sections(page).getByRole('button', { name: 'Chat' }).click();
}

/**
 * Writes a message and presses Enter. The composer sends nothing while the
 * conversation's turn still runs (its button says Stop, not Send), so this
 * waits for that turn to end first: a tool's result on screen is not yet the
 * end of the answer that follows it.
 */
export async function send(page: Page, text: string): Promise<void> {
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
  await composer(page).fill(text);
  await composer(page).press('Enter');
}

/** Queues scripted replies (errors, texts) on the fake Messages API. */
export async function scriptReplies(baseUrl: string, replies: object[]): Promise<void> {
  const response = await fetch(`${baseUrl}/_script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(replies),
  });
  expect(response.ok).toBe(true);
}
