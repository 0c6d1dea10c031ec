import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures/headless.js';
import { openConnectedServer } from './flows/server-everything.js';

// A server's skills in its view (SEP-2640), against the skills fixture (v2 server SDK):
// the verified one, the tampered one and the huge one with their reasons, the files, the switch.
const skillsEntry = fileURLToPath(new URL('../test/fixtures/servers/skills-server.mjs', import.meta.url));

test.use({
  initialConfig: { mcpServers: { kit: { command: process.execPath, args: [skillsEntry] } } },
});

test('the Skills tab lists each skill with its state, reason and files; the switch turns skills off', async ({
  app,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await openConnectedServer(page, 'kit');
  const main = page.getByRole('main');
  await main.getByRole('tab', { name: /^Skills/ }).click();
  const list = main.getByRole('list', { name: 'Skills' });
  await expect(list.getByRole('listitem', { name: 'Skill notes' })).toContainText('Verified');
  await expect(list.getByRole('listitem', { name: 'Skill notes' })).toContainText(
    'Take tidy meeting notes with action items',
  );
  const tampered = list.getByRole('listitem', { name: 'Skill tampered' });
  await expect(tampered).toContainText('Not offered');
  await expect(tampered.getByRole('note')).toContainText(/refused: its (size|digest) does not match/);
  const huge = list.getByRole('listitem', { name: 'Skill huge' });
  await expect(huge.getByRole('note')).toContainText("over the host's limit of 256 KB");
  await expect(main.getByText('3 skills, 1 verified')).toBeVisible();

  // The files of a skill open with the keyboard.
  const files = list.getByRole('listitem', { name: 'Skill notes' }).locator('summary');
  await expect(files).toContainText('SKILL.md and 2 other files');
  await files.focus();
  await page.keyboard.press('Enter');
  await expect(main.getByRole('list', { name: 'Files of notes' })).toContainText('references/STYLE.md');
  await page.screenshot({ path: testInfo.outputPath('skills-light.png'), fullPage: true });
  // No accessibility violation, with a verified and two refused skills and a file list open, in light and dark.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.waitForTimeout(250);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    expect.soft(results.violations.map((v) => `[${scheme}] ${v.id}: ${v.help}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  await list.screenshot({ path: testInfo.outputPath('skills-list-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await list.screenshot({ path: testInfo.outputPath('skills-list-dark.png') });
  await page.screenshot({ path: testInfo.outputPath('skills-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  const toggle = main.getByRole('switch', { name: 'Offer skills to Claude' });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect(main.getByText('Turned off: none is offered to Claude.')).toBeVisible();
});
