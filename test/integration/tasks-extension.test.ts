import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../shared/model/consent.js';
import type { ConnectionTuning } from '../../electron/host/servers/connection-options.js';
import { createTestHost, value, waitForEvent } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { fixtureServer } from '../helpers/servers.js';
import { taskEvents } from '../helpers/task-events.js';
import { startTaskExtensionHttp } from '../helpers/http-servers.js';
import type { HttpServerProcess } from '../helpers/http-servers.js';
import type { ServerConfig } from '../../shared/model/config.js';

/**
 * The 2026-07-28 Tasks extension (io.modelcontextprotocol/tasks) against a
 * fixture on the official v2 server SDK (test/fixtures/servers/task-ext-server.mjs):
 * it answers tools/call of `job` with a task handle only when the request's
 * capabilities name the extension, so every task here proves the host
 * declared it on that request.
 */

let t: TestHost | undefined;
let http: HttpServerProcess | undefined;
afterEach(async () => {
  await t?.host.dispose();
  t = undefined;
  await http?.stop();
  http = undefined;
});

async function start(tuning?: ConnectionTuning, entry?: ServerConfig): Promise<TestHost> {
  t = await createTestHost({ ext: entry ?? fixtureServer('task-ext-server.mjs') }, { tuning });
  value(await t.api.startServer({ name: 'ext' }));
  const server = value(await t.api.listServers({})).find((s) => s.name === 'ext');
  expect(server?.protocolVersion).toBe('2026-07-28');
  return t;
}

function job(host: TestHost, args: Record<string, unknown>) {
  return host.api.callTool({ server: 'ext', tool: 'job', argumentsJson: JSON.stringify(args) });
}

const logsOf = async (host: TestHost): Promise<string> =>
  JSON.stringify(value(await host.api.getServerLogs({ name: 'ext' })));

/** The server's log, once it holds `text` (what the server writes on stderr arrives on its own time). */
async function logged(host: TestHost, text: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const logs = await logsOf(host);
    if (logs.includes(text)) return logs;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return logsOf(host);
}

describe('the 2026-07-28 Tasks extension (v2 server SDK fixture)', () => {
  it('a tool call answered with a task is followed with tasks/get to its inlined result', async () => {
    const host = await start();
    const result = value(await job(host, { mode: 'ok', ms: 300 }));
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    const events = taskEvents(host);
    expect(events[0]).toMatchObject({ server: 'ext', tool: 'job', taskId: 'ext-1', status: 'working' });
    expect(events.at(-1)?.status).toBe('completed');
    expect(value(await host.api.listTasks({}))[0]).toMatchObject({ taskId: 'ext-1', ttlMs: 60_000 });
    // The extension is named in each request's capabilities.
    const caps = value(await host.api.callTool({ server: 'ext', tool: 'caps', argumentsJson: '{}' }));
    expect(JSON.parse(caps.content[0]?.type === 'text' ? caps.content[0].text : '')).toMatchObject({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    // A tool the server answers at once stays a plain call.
    expect(
      value(await host.api.callTool({ server: 'ext', tool: 'plain', argumentsJson: '{}' })).content,
    ).toEqual([{ type: 'text', text: 'plain result' }]);
  }, 30_000);

  it('Streamable HTTP: the task is followed to its result, and its input request answered', async () => {
    http = await startTaskExtensionHttp();
    const host = await start(undefined, { url: `${http.origin}/mcp` });
    expect(value(await job(host, { mode: 'ok', ms: 200 })).content).toEqual([{ type: 'text', text: 'done' }]);
    const pending = job(host, { mode: 'input', ms: 50 });
    const form = await waitForEvent(
      host,
      (event, payload) => (event === 'consentRequested' ? (payload as ConsentRequest) : undefined),
      'the form',
    );
    value(
      await host.api.answerConsent({ id: form.id, answer: { action: 'accept', content: { colour: 'red' } } }),
    );
    expect(value(await pending).content).toEqual([
      { type: 'text', text: 'answered {"action":"accept","content":{"colour":"red"}}' },
    ]);
  }, 30_000);

  it('input_required: the elicitation goes through the dialog once, the answer goes back with tasks/update', async () => {
    const host = await start();
    const pending = job(host, { mode: 'input', ms: 100 });
    const form = await waitForEvent(
      host,
      (event, payload) => (event === 'consentRequested' ? (payload as ConsentRequest) : undefined),
      'the form',
    );
    expect(form).toMatchObject({ kind: 'elicitationForm', server: 'ext' });
    value(
      await host.api.answerConsent({
        id: form.id,
        answer: { action: 'accept', content: { colour: 'blue' } },
      }),
    );
    const result = value(await pending);
    expect(result.content).toEqual([
      { type: 'text', text: 'answered {"action":"accept","content":{"colour":"blue"}}' },
    ]);
    // Asked once, although the server listed the request on every poll until it was answered.
    expect(host.events.filter((e) => e.event === 'consentRequested')).toHaveLength(1);
    expect(taskEvents(host).some((e) => e.status === 'input_required')).toBe(true);
  }, 30_000);

  it('a sampling input request the person rejects cancels the task with one line', async () => {
    const host = await start();
    const pending = job(host, { mode: 'sample', ms: 50 });
    const request = await waitForEvent(
      host,
      (event, payload) => (event === 'consentRequested' ? (payload as ConsentRequest) : undefined),
      'the sampling dialog',
    );
    expect(request).toMatchObject({ kind: 'sampling', server: 'ext' });
    value(await host.api.answerConsent({ id: request.id, answer: { decision: 'reject' } }));
    const outcome = await pending;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.message).toBe(
        'Task "ext-1" of server "ext": answering its input request failed: User rejected sampling request',
      );
    }
    expect(await logged(host, 'cancelled task ext-1')).toContain('cancelled task ext-1');
    expect(taskEvents(host).at(-1)).toMatchObject({ taskId: 'ext-1', status: 'failed' });
  }, 30_000);

  it('a task the server forgets is marked lost with one line', async () => {
    const host = await start();
    const outcome = await job(host, { mode: 'forget' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.message).toBe(
        'Task "ext-1" of server "ext" is no longer known to the server (it may have restarted or dropped it)',
      );
    }
    expect(taskEvents(host).at(-1)).toMatchObject({ taskId: 'ext-1', status: 'lost' });
  }, 30_000);

  it('a task that never finishes fails past its ttl and is cancelled on the server', async () => {
    const host = await start();
    const outcome = await job(host, { mode: 'never' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('timeout');
      expect(outcome.error.message).toBe('Task "ext-1" of server "ext" did not finish within its ttl (2 s)');
    }
    expect(await logged(host, 'cancelled task ext-1')).toContain('cancelled task ext-1');
  }, 30_000);

  it('a status flood is throttled; a status for a task the host does not know is one log line', async () => {
    const host = await start();
    const result = value(await job(host, { mode: 'flood', ms: 100 }));
    expect(result.content).toEqual([{ type: 'text', text: 'flood done' }]);
    expect(taskEvents(host).length).toBeLessThan(30);
    const logs = await logsOf(host);
    expect(logs.match(/no-such-task/g)).toHaveLength(1);
    expect(logs).toContain('ignored a status for task \\"no-such-task\\", which the host does not know');
  }, 30_000);

  it('a result over the size limit, and a failed task, are one line each', async () => {
    const host = await start({ taskLimits: { maxResultBytes: 200_000 } });
    const big = await job(host, { mode: 'big', ms: 50 });
    expect(big.ok).toBe(false);
    if (!big.ok) {
      expect(big.error.message).toBe(
        'Task "ext-1" of server "ext" returned a result of 0.3 MB, over the host\'s limit of 0.2 MB',
      );
    }
    const failed = await job(host, { mode: 'fail', ms: 50 });
    expect(failed.ok).toBe(false);
    if (!failed.ok)
      expect(failed.error.message).toBe('Task "ext-2" of server "ext" failed: backend exploded');
  }, 30_000);
});
