import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicSamplingModel } from '../../electron/host/client-features/sampling/sampling-model.js';
import type { ConsentRequest } from '../../shared/model/consent.js';
import type { ServerConfig } from '../../shared/model/config.js';
import type { ToolCallResult } from '../../shared/model/server.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeAnthropic } from '../fixtures/fake-anthropic.js';
import { createTestHost, value, waitForEvent } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { startEverythingHttp } from '../helpers/http-servers.js';
import type { HttpServerProcess } from '../helpers/http-servers.js';
import { RecordingPlatform } from '../helpers/recording-platform.js';
import { everything, tempDir } from '../helpers/servers.js';

/**
 * Tasks in the other direction (2025-11-25) against server-everything: its
 * two tools that ask the client to run sampling or elicitation as a task
 * are listed only to a client that declares `tasks.requests` for them, get
 * a task handle at once, poll tasks/get and fetch tasks/result. The work
 * goes through the same consent dialogs as a plain request.
 */

const SAMPLING_TOOL = 'trigger-sampling-request-async';
const ELICITATION_TOOL = 'trigger-elicitation-request-async';

const hosts: TestHost[] = [];
const claudes: FakeAnthropic[] = [];
const processes: HttpServerProcess[] = [];
afterEach(async () => {
  for (const t of hosts.splice(0)) await t.host.dispose();
  for (const c of claudes.splice(0)) await c.close();
  for (const p of processes.splice(0)) await p.stop();
});

async function start(server: ServerConfig): Promise<{ t: TestHost; claude: FakeAnthropic }> {
  const claude = await startFakeAnthropic();
  claudes.push(claude);
  const t = await createTestHost(
    { everything: server },
    {
      platform: new RecordingPlatform(tempDir()),
      samplingModel: new AnthropicSamplingModel(() =>
        Promise.resolve({ apiKey: 'test-key', baseURL: claude.url }),
      ),
    },
  );
  hosts.push(t);
  value(await t.api.startServer({ name: 'everything' }));
  for (let i = 0; i < 200; i++) {
    const tools = value(await t.api.listServers({})).find((s) => s.name === 'everything')?.tools ?? [];
    const names = tools.map((tool) => tool.name);
    if (names.includes(SAMPLING_TOOL) && names.includes(ELICITATION_TOOL)) return { t, claude };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('server-everything never listed its bidirectional task tools');
}

function nextConsent(t: TestHost, kind: ConsentRequest['kind']): Promise<ConsentRequest> {
  return waitForEvent(
    t,
    (event, payload) =>
      event === 'consentRequested' && (payload as ConsentRequest).kind === kind
        ? (payload as ConsentRequest)
        : undefined,
    `a ${kind} dialog`,
  );
}

const textOf = (result: ToolCallResult): string =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

async function samplingAsTask(t: TestHost, claude: FakeAnthropic): Promise<string> {
  claude.enqueue({ type: 'text', text: 'Oslo.' });
  const call = t.api.callTool({
    server: 'everything',
    tool: SAMPLING_TOOL,
    argumentsJson: JSON.stringify({ prompt: 'Capital of Norway?', maxTokens: 50 }),
  });
  const request = await nextConsent(t, 'sampling');
  expect(request.server).toBe('everything');
  // Nothing reaches Claude before the person's yes, task or not.
  expect(claude.messageRequests()).toHaveLength(0);
  value(await t.api.answerConsent({ id: request.id, answer: { decision: 'approve', maxTokens: 50 } }));
  const review = await nextConsent(t, 'samplingReview');
  value(await t.api.answerConsent({ id: review.id, answer: { decision: 'approve' } }));
  const text = textOf(value(await call));
  expect(claude.messageRequests()).toHaveLength(1);
  return text;
}

describe('sampling and elicitation as tasks the server asked for (server-everything)', () => {
  it('stdio: sampling runs as a host-side task through consent; the server polls it and fetches the result', async () => {
    const { t, claude } = await start(everything());
    const text = await samplingAsTask(t, claude);
    expect(text).toContain('[COMPLETED] Async sampling completed!');
    expect(text).toMatch(/Task created: [0-9a-f-]{36}/);
    expect(text).toContain('"text": "Oslo."');
    // The result from tasks/result names its task.
    expect(text).toContain('io.modelcontextprotocol/related-task');
  }, 40_000);

  it('stdio: elicitation runs as a task; the form answer reaches the server through tasks/result', async () => {
    const { t } = await start(everything());
    const call = t.api.callTool({ server: 'everything', tool: ELICITATION_TOOL, argumentsJson: '{}' });
    const form = await nextConsent(t, 'elicitationForm');
    expect(form.server).toBe('everything');
    value(
      await t.api.answerConsent({
        id: form.id,
        answer: { action: 'accept', content: { name: 'Ada', favoriteColor: 'Blue' } },
      }),
    );
    const text = textOf(value(await call));
    expect(text).toContain('[COMPLETED] User provided the requested information!');
    expect(text).toContain('- Name: Ada');
    expect(text).toContain('- Favorite Color: Blue');
  }, 40_000);

  it('stdio: a declined form is the task’s result, as it would be for the plain request', async () => {
    const { t } = await start(everything());
    const call = t.api.callTool({ server: 'everything', tool: ELICITATION_TOOL, argumentsJson: '{}' });
    const form = await nextConsent(t, 'elicitationForm');
    value(await t.api.answerConsent({ id: form.id, answer: { action: 'decline' } }));
    expect(textOf(value(await call))).toContain('[DECLINED]');
  }, 40_000);

  it('Streamable HTTP: sampling as a task works the same', async () => {
    const server = await startEverythingHttp('streamableHttp');
    processes.push(server);
    const { t, claude } = await start({ url: `${server.origin}/mcp` });
    const text = await samplingAsTask(t, claude);
    expect(text).toContain('[COMPLETED] Async sampling completed!');
    expect(text).toContain('"text": "Oslo."');
  }, 40_000);
});
