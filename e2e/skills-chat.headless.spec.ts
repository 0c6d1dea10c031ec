import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures/chat.js';
import { consent, messages, send, setUpClaude } from './flows/chat.js';

// A skill loaded by Claude through the host's load_skill tool, against the skills
// fixture (v2 server SDK) and the fake Messages API; then skills turned off for the conversation.
const skillsEntry = fileURLToPath(new URL('../test/fixtures/servers/skills-server.mjs', import.meta.url));

test.use({
  initialConfig: { mcpServers: { kit: { command: process.execPath, args: [skillsEntry] } } },
});

test('Claude loads a skill through the host (no consent), and a conversation can turn skills off', async ({
  app,
  page,
  fakeApi,
}, testInfo) => {
  await page.goto(app.url);
  await setUpClaude(page, fakeApi.url, { servers: ['kit'] });

  await send(page, 'call load_skill {"server": "kit", "skill": "notes"}');
  const card = messages(page)
    .getByRole('button', { name: /load_skill by the host/ })
    .last();
  await expect(card).toContainText('Done');
  await expect(consent(page)).toBeHidden();
  await card.click();
  await expect(messages(page).getByRole('region', { name: 'Result' }).last()).toContainText(
    'Write a heading per topic, then action items as a checklist.',
  );
  await page.screenshot({ path: testInfo.outputPath('load-skill-card.png') });

  // Off for this conversation: the checkbox in its settings, kept when the dialog opens again.
  await page.getByRole('button', { name: 'Settings of this conversation' }).click();
  const offer = page.getByRole('checkbox', { name: 'Offer the servers’ verified skills to Claude' });
  await expect(offer).toBeChecked();
  await offer.press('Space');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Settings of this conversation' }).click();
  await expect(offer).not.toBeChecked();
  await page.keyboard.press('Escape');

  await send(page, 'call load_skill {"server": "kit", "skill": "notes"}');
  const refused = messages(page)
    .getByRole('button', { name: /load_skill by the host/ })
    .last();
  await expect(refused).toContainText('Error');
  // What Claude was told (the fake API echoes the tool result): one line, nothing loaded.
  await expect(messages(page)).toContainText(
    'The tool said: No skill "notes" of server "kit" is available in this conversation.',
  );
});
