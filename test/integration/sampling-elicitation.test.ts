import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../electron/host/host-types.js';
import { AnthropicSamplingModel } from '../../electron/host/client-features/sampling/sampling-model.js';
import type { HostRequests } from '../../shared/ipc/host-api.js';
import type { ConsentRequest } from '../../shared/model/consent.js';
import type { ToolCallResult } from '../../shared/model/server.js';
import { createTestHost, value, waitForEvent } from '../helpers/host.js';
import { everything, fixtureServer, tempDir } from '../helpers/servers.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeAnthropic } from '../fixtures/fake-anthropic.js';
import { RecordingPlatform } from '../helpers/recording-platform.js';

/** server-everything's tools that ask the client for sampling and elicitation. */
const SAMPLING_TOOL = 'trigger-sampling-request';
const FORM_TOOL = 'trigger-elicitation-request';
const URL_TOOL = 'trigger-url-elicitation';

/** Our raw fixture that samples with tools and includeContext (see the file). */
const sampler = fixtureServer('sampling-server.mjs');
const SAMPLER_INSTRUCTIONS = 'SAMPLING-FIXTURE-INSTRUCTIONS: answer in French.';

interface Setup {
  host: Host;
  api: HostRequests;
  claude: FakeAnthropic;
  platform: RecordingPlatform;
  /** How many consent requests the host has raised so far. */
  consentCount: () => number;
  /** Resolves with the next consent request of `kind` (one already waiting counts). */
  next: (kind: ConsentRequest['kind']) => Promise<ConsentRequest>;
}

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.host.dispose();
  await setup?.claude.close();
  setup = undefined;
});

async function start(options: { perMinute?: number; interactive?: boolean } = {}): Promise<Setup> {
  const claude = await startFakeAnthropic();
  const platform = new RecordingPlatform(tempDir());
  const t = await createTestHost(
    { everything: everything(), other: everything(), sampler },
    {
      platform,
      samplingModel: new AnthropicSamplingModel(() =>
        Promise.resolve({ apiKey: 'test-key', baseURL: claude.url }),
      ),
      samplingPerMinute: options.perMinute,
      interactive: options.interactive,
    },
  );
  const consentOf = (event: string, payload: unknown): ConsentRequest | undefined =>
    event === 'consentRequested' ? (payload as ConsentRequest) : undefined;
  const taken = new Set<string>();
  const next = (kind: ConsentRequest['kind']): Promise<ConsentRequest> =>
    waitForEvent(
      t,
      (event, payload) => {
        const request = consentOf(event, payload);
        if (request?.kind !== kind || taken.has(request.id)) return undefined;
        taken.add(request.id);
        return request;
      },
      `a ${kind} consent request`,
    );
  const consentCount = () => t.events.filter((e) => consentOf(e.event, e.payload) !== undefined).length;
  setup = { host: t.host, api: t.api, claude, platform, consentCount, next };
  return setup;
}

/** Starts a server and waits until its capability-gated tools (registered after initialize) are listed. */
async function startServer(api: HostRequests, name: string, tool: string): Promise<void> {
  value(await api.startServer({ name }));
  for (let i = 0; i < 100; i++) {
    const snapshot = value(await api.listServers({})).find((s) => s.name === name);
    if (snapshot?.tools.some((t) => t.name === tool)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} never listed ${tool}`);
}

const textOf = (result: ToolCallResult): string =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

async function answer(api: HostRequests, id: string, decision: unknown): Promise<void> {
  value(await api.answerConsent({ id, answer: decision }));
}

describe('sampling through consent and Claude (server-everything over stdio)', () => {
  it('approved: Claude gets exactly the server’s messages, the server gets the reviewed completion', async () => {
    const s = await start();
    await startServer(s.api, 'other', 'echo');
    // Another server's data passes through the host before the sampling request.
    value(
      await s.api.callTool({
        server: 'other',
        tool: 'echo',
        argumentsJson: '{"message":"SECRET-OTHER-SERVER"}',
      }),
    );
    await startServer(s.api, 'everything', SAMPLING_TOOL);
    s.claude.enqueue({ type: 'text', text: 'Paris.' });

    const call = s.api.callTool({
      server: 'everything',
      tool: SAMPLING_TOOL,
      argumentsJson: JSON.stringify({ prompt: 'What is the capital of France?', maxTokens: 100 }),
    });
    const request = await s.next('sampling');
    expect(request.server).toBe('everything');
    if (request.kind !== 'sampling') throw new Error('unexpected kind');
    expect(request.prompt).toMatchObject({
      systemPrompt: 'You are a helpful test server.',
      maxTokens: 100,
      includeContext: 'none',
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'text', text: `Resource ${SAMPLING_TOOL} context: What is the capital of France?` },
          ],
        },
      ],
    });
    expect(s.claude.messageRequests()).toHaveLength(0); // nothing reaches Claude before the person's yes
    await answer(s.api, request.id, { decision: 'approve', maxTokens: 100 });

    const review = await s.next('samplingReview');
    if (review.kind !== 'samplingReview') throw new Error('unexpected kind');
    expect(review.prompt.parts).toEqual([{ type: 'text', text: 'Paris.' }]);
    await answer(s.api, review.id, { decision: 'approve' });

    const result = value(await call);
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain('"text": "Paris."');
    expect(textOf(result)).toContain('"stopReason": "endTurn"');

    expect(s.claude.messageRequests()).toHaveLength(1);
    expect(s.claude.messageKeys()).toEqual(['test-key']);
    expect(s.claude.messageRequests()[0]).toEqual({
      model: 'claude-sonnet-5-5',
      max_tokens: 100,
      system: 'You are a helpful test server.',
      temperature: 0.7,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: `Resource ${SAMPLING_TOOL} context: What is the capital of France?` },
          ],
        },
      ],
    });
    expect(JSON.stringify(s.claude.messageRequests())).not.toContain('SECRET-OTHER-SERVER');
  });

  it('the person’s edits to the request and to the completion are what Claude and the server get', async () => {
    const s = await start();
    await startServer(s.api, 'everything', SAMPLING_TOOL);
    const call = s.api.callTool({
      server: 'everything',
      tool: SAMPLING_TOOL,
      argumentsJson: JSON.stringify({ prompt: 'original question' }),
    });
    const request = await s.next('sampling');
    await answer(s.api, request.id, {
      decision: 'approve',
      maxTokens: 42,
      systemPrompt: 'Be brief.',
      textEdits: [{ message: 0, part: 0, text: 'edited question' }],
    });
    const review = await s.next('samplingReview');
    await answer(s.api, review.id, { decision: 'approve', textEdits: [{ part: 0, text: 'Edited answer.' }] });
    const result = value(await call);
    expect(textOf(result)).toContain('"text": "Edited answer."');
    expect(s.claude.messageRequests()[0]).toMatchObject({
      max_tokens: 42,
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'edited question' }] }],
    });
  });

  it('rejected: the server gets the user-rejected error and Claude is never called', async () => {
    const s = await start();
    await startServer(s.api, 'everything', SAMPLING_TOOL);
    const call = s.api.callTool({
      server: 'everything',
      tool: SAMPLING_TOOL,
      argumentsJson: JSON.stringify({ prompt: 'hello' }),
    });
    const request = await s.next('sampling');
    await answer(s.api, request.id, { decision: 'reject' });
    const result = value(await call);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/-1.*User rejected sampling request/);
    expect(s.claude.messageRequests()).toHaveLength(0);
  });

  it('rejecting the completion also returns the user-rejected error', async () => {
    const s = await start();
    await startServer(s.api, 'everything', SAMPLING_TOOL);
    const call = s.api.callTool({
      server: 'everything',
      tool: SAMPLING_TOOL,
      argumentsJson: '{"prompt":"hi"}',
    });
    await answer(s.api, (await s.next('sampling')).id, { decision: 'approve', maxTokens: 10 });
    await answer(s.api, (await s.next('samplingReview')).id, { decision: 'reject' });
    const result = value(await call);
    expect(textOf(result)).toMatch(/User rejected sampling request/);
    expect(s.claude.messageRequests()).toHaveLength(1);
  });

  it('over the per-server rate limit: refused with a clear error, without asking the person', async () => {
    const s = await start({ perMinute: 1 });
    await startServer(s.api, 'everything', SAMPLING_TOOL);
    const first = s.api.callTool({
      server: 'everything',
      tool: SAMPLING_TOOL,
      argumentsJson: '{"prompt":"1"}',
    });
    await answer(s.api, (await s.next('sampling')).id, { decision: 'approve', maxTokens: 10 });
    await answer(s.api, (await s.next('samplingReview')).id, { decision: 'approve' });
    expect(value(await first).isError).toBe(false);

    const asked = s.consentCount();
    const second = value(
      await s.api.callTool({ server: 'everything', tool: SAMPLING_TOOL, argumentsJson: '{"prompt":"2"}' }),
    );
    expect(second.isError).toBe(true);
    expect(textOf(second)).toMatch(
      /rate limit: at most 1 requests per minute from "everything"; try again in \d+ s/,
    );
    expect(s.consentCount()).toBe(asked);
    expect(s.claude.messageRequests()).toHaveLength(1);
  });
});

describe('capabilities', () => {
  it('with nobody to ask (the one-shot CLI), neither sampling nor elicitation is declared', async () => {
    const s = await start({ interactive: false });
    value(await s.api.startServer({ name: 'everything' }));
    // server-everything registers its trigger tools only for clients that declare the capability.
    await startServer(s.api, 'everything', 'get-roots-list');
    const tools = value(await s.api.listServers({}))
      .find((x) => x.name === 'everything')
      ?.tools.map((t) => t.name);
    expect(tools).not.toContain(SAMPLING_TOOL);
    expect(tools).not.toContain(FORM_TOOL);
    expect(tools).not.toContain(URL_TOOL);
  });
});

describe('elicitation through consent (server-everything over stdio)', () => {
  it('accepted: omitted fields get the schema defaults before the server sees them', async () => {
    const s = await start();
    await startServer(s.api, 'everything', FORM_TOOL);
    const call = s.api.callTool({ server: 'everything', tool: FORM_TOOL, argumentsJson: '{}' });
    const request = await s.next('elicitationForm');
    if (request.kind !== 'elicitationForm') throw new Error('unexpected kind');
    expect(request.server).toBe('everything');
    expect(request.prompt.message).toBe('Please provide inputs for the following fields:');
    expect(Object.keys(request.prompt.requestedSchema.properties)).toContain('legacyTitledEnum');
    await answer(s.api, request.id, { action: 'accept', content: { name: 'Ada Lovelace', check: true } });
    const text = textOf(value(await call));
    expect(text).toContain('- Name: Ada Lovelace');
    const raw = JSON.parse(text.slice(text.indexOf('{'))) as {
      action: string;
      content: Record<string, unknown>;
    };
    expect(raw).toEqual({
      action: 'accept',
      content: {
        name: 'Ada Lovelace',
        check: true,
        firstLine: 'It was a dark and stormy night.',
        integer: 42,
        number: 3.14,
        untitledSingleSelectEnum: 'Monica',
        untitledMultipleSelectEnum: ['Guitar'],
        titledSingleSelectEnum: 'hero-1',
        titledMultipleSelectEnum: ['fish-1'],
        legacyTitledEnum: 'pet-1',
      },
    });
  });

  it('declined and cancelled reach the server as such', async () => {
    const s = await start();
    await startServer(s.api, 'everything', FORM_TOOL);
    const declined = s.api.callTool({ server: 'everything', tool: FORM_TOOL, argumentsJson: '{}' });
    await answer(s.api, (await s.next('elicitationForm')).id, { action: 'decline' });
    expect(textOf(value(await declined))).toContain('User declined to provide the requested information');

    const cancelled = s.api.callTool({ server: 'everything', tool: FORM_TOOL, argumentsJson: '{}' });
    await answer(s.api, (await s.next('elicitationForm')).id, { action: 'cancel' });
    expect(textOf(value(await cancelled))).toContain('User cancelled the elicitation dialog');
  });

  it('an answer that breaks the schema never reaches the server as accepted', async () => {
    const s = await start();
    await startServer(s.api, 'everything', FORM_TOOL);
    const call = s.api.callTool({ server: 'everything', tool: FORM_TOOL, argumentsJson: '{}' });
    await answer(s.api, (await s.next('elicitationForm')).id, {
      action: 'accept',
      content: { name: 'x', integer: 500 },
    });
    const result = value(await call);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('integer: Must be at most 100');
  });

  it('URL mode: the browser opens only after the person accepts', async () => {
    const s = await start();
    await startServer(s.api, 'everything', URL_TOOL);
    const url = 'https://example.com/authorize?state=1';
    const declined = s.api.callTool({
      server: 'everything',
      tool: URL_TOOL,
      argumentsJson: JSON.stringify({ url }),
    });
    const first = await s.next('elicitationUrl');
    if (first.kind !== 'elicitationUrl') throw new Error('unexpected kind');
    expect(first.prompt.url).toBe(url);
    await answer(s.api, first.id, { action: 'decline' });
    expect(textOf(value(await declined))).toContain('User declined to open the URL');
    expect(s.platform.opened).toEqual([]);

    const accepted = s.api.callTool({
      server: 'everything',
      tool: URL_TOOL,
      argumentsJson: JSON.stringify({ url }),
    });
    await answer(s.api, (await s.next('elicitationUrl')).id, { action: 'accept' });
    expect(textOf(value(await accepted))).toContain('User completed the URL elicitation flow');
    expect(s.platform.opened).toEqual([url]);
  });
});

describe('sampling with tools and context (raw 2025-11-25 fixture)', () => {
  const answerOf = (
    result: ToolCallResult,
  ): { result?: Record<string, unknown>; error?: { code: number; message: string } } =>
    JSON.parse(textOf(result)) as {
      result?: Record<string, unknown>;
      error?: { code: number; message: string };
    };

  it('tools and toolChoice reach Claude; a tool_use completion returns as tool_use with stopReason toolUse', async () => {
    const s = await start();
    await startServer(s.api, 'sampler', 'ask-with-tools');
    s.claude.enqueue({
      type: 'tool_use',
      text: 'Let me check.',
      id: 'toolu_1',
      name: 'get_weather',
      input: { city: 'Paris' },
    });
    const call = s.api.callTool({ server: 'sampler', tool: 'ask-with-tools', argumentsJson: '{}' });
    const request = await s.next('sampling');
    if (request.kind !== 'sampling') throw new Error('unexpected kind');
    expect(request.prompt).toMatchObject({
      model: 'claude-haiku-5-5',
      includeContext: 'thisServer',
      contextPreview: SAMPLER_INSTRUCTIONS,
      tools: [{ name: 'get_weather', description: 'Weather for a city' }],
      toolChoice: 'required',
      modelPreferences: { hints: ['claude-3-haiku'], speedPriority: 0.9 },
    });
    await answer(s.api, request.id, { decision: 'approve', maxTokens: 200, includeContext: true });
    const review = await s.next('samplingReview');
    if (review.kind !== 'samplingReview') throw new Error('unexpected kind');
    expect(review.prompt.parts).toEqual([
      { type: 'text', text: 'Let me check.' },
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'get_weather',
        inputJson: JSON.stringify({ city: 'Paris' }, null, 2),
      },
    ]);
    await answer(s.api, review.id, { decision: 'approve' });

    expect(answerOf(value(await call)).result).toEqual({
      model: 'claude-haiku-5-5',
      role: 'assistant',
      stopReason: 'toolUse',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
    });
    expect(s.claude.messageRequests()[0]).toMatchObject({
      model: 'claude-haiku-5-5',
      tools: [
        {
          name: 'get_weather',
          description: 'Weather for a city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ],
      tool_choice: { type: 'any' },
      system: `Context from the MCP server "sampler" (its own instructions):\n${SAMPLER_INSTRUCTIONS}`,
    });
  });

  it('a follow-up with tool results is mapped to Claude\u2019s tool_result blocks', async () => {
    const s = await start();
    await startServer(s.api, 'sampler', 'continue-with-tool');
    s.claude.enqueue({ type: 'text', text: 'It is 18°C and sunny.' });
    const call = s.api.callTool({ server: 'sampler', tool: 'continue-with-tool', argumentsJson: '{}' });
    const request = await s.next('sampling');
    if (request.kind !== 'sampling') throw new Error('unexpected kind');
    expect(request.prompt.messages[2]?.parts).toEqual([
      { type: 'tool_result', toolUseId: 'call_1', text: '18°C, sunny', isError: false },
    ]);
    await answer(s.api, request.id, { decision: 'approve', maxTokens: 200 });
    await answer(s.api, (await s.next('samplingReview')).id, { decision: 'approve' });
    expect(answerOf(value(await call)).result).toMatchObject({
      stopReason: 'endTurn',
      content: { type: 'text', text: 'It is 18°C and sunny.' },
    });
    expect(s.claude.messageRequests()[0]?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: '18°C, sunny' }] },
        ],
      },
    ]);
    expect(s.claude.messageRequests()[0]?.tool_choice).toEqual({ type: 'auto' });
  });

  it('"allServers" is shown with a notice; without the person\u2019s yes no context is added', async () => {
    const s = await start();
    await startServer(s.api, 'sampler', 'ask-all-servers');
    const call = s.api.callTool({ server: 'sampler', tool: 'ask-all-servers', argumentsJson: '{}' });
    const request = await s.next('sampling');
    if (request.kind !== 'sampling') throw new Error('unexpected kind');
    expect(request.prompt.includeContext).toBe('allServers');
    expect(request.prompt.contextNotice).toMatch(/never shares other servers/);
    await answer(s.api, request.id, { decision: 'approve', maxTokens: 50 });
    await answer(s.api, (await s.next('samplingReview')).id, { decision: 'approve' });
    value(await call);
    expect(JSON.stringify(s.claude.messageRequests()[0])).not.toContain('SAMPLING-FIXTURE-INSTRUCTIONS');
    expect(s.claude.messageRequests()[0]?.system).toBeUndefined();
  });

  it('tool results mixed with other content are refused (-32602) without asking anyone', async () => {
    const s = await start();
    await startServer(s.api, 'sampler', 'bad-tool-results');
    const asked = s.consentCount();
    const result = value(
      await s.api.callTool({ server: 'sampler', tool: 'bad-tool-results', argumentsJson: '{}' }),
    );
    expect(answerOf(result).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Tool results mixed with other content') as unknown,
    });
    expect(s.consentCount()).toBe(asked);
    expect(s.claude.messageRequests()).toHaveLength(0);
  });
});
