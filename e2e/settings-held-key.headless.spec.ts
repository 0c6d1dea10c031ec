import { test, expect } from './fixtures/headless.js';

test('after the base URL moves to another host, the model list says the saved key is not sent there, beside the button that allows it', async ({
  app,
  page,
}) => {
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Open Settings' }).click();
  await page.getByRole('textbox', { name: 'API key' }).fill('sk-ant-e2e-key-000011112222wxyz');
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByText('sk-…wxyz')).toBeVisible();
  const other = 'http://127.0.0.1:9';
  await page.getByRole('textbox', { name: 'Base URL' }).fill(`${other}/`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Base URL saved.')).toBeVisible();

  const connection = page.getByRole('region', { name: 'Model and endpoint' });
  await expect(connection).toContainText(
    'Showing the default list: the saved key is not sent to http://127.0.0.1:9 (it was saved for https://api.anthropic.com).',
  );
  await expect(connection).not.toContainText('No API key is set');
  const allow = connection.getByRole('button', { name: `Send my key to ${other}` });
  await expect(allow).toBeVisible();
  await allow.click();
  await expect(connection).not.toContainText('the saved key is not sent to');
  await expect(page.getByRole('region', { name: 'Anthropic API key' })).not.toContainText(
    'Not sent to this host',
  );
});
