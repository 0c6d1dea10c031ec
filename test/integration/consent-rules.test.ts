import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME } from '../../electron/host/persistence/persistence.js';
import { eventsOf, turnEnd, waitForEvent } from '../helpers/chat.js';
import { value, waitForSnapshot } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { NodePlatform } from '../../electron/host/node-platform.js';
import { callThroughChat } from '../helpers/chat-consent.js';
import { RecordingPlatform } from '../helpers/recording-platform.js';
import { fakeAnthropicEachTest, hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { everything, fixtureServer, tempDir } from '../helpers/servers.js';

const annotations = (...args: string[]) => fixtureServer('annotations-server.mjs', ...args);

const anthropic = fakeAnthropicEachTest();
const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

const newConversation = async (host: TestHost): Promise<string> =>
  value(await host.api.createConversation({})).id;

const rulesOf = async (host: TestHost) => value(await host.api.listPolicies({}));

describe('consent rules (real host, server-everything and fixtures, fake Messages API)', () => {
  it('"Allow for this conversation" covers that tool in that conversation only; the stored result says which rule', async () => {
    const platform = new RecordingPlatform(tempDir());
    t = await hosts.chat(anthropic.fake, { everything: everything() }, { platform });
    const a = await newConversation(t);
    const first = await callThroughChat(t, a, 'call echo {"message":"one"}', ['allow-conversation']);
    expect(first.asked).toHaveLength(1);
    // Each request asks the platform for attention (Electron: a notification when unfocused).
    expect(platform.notes).toEqual([
      { title: 'Approval needed', body: 'Claude wants to run “echo” on everything.' },
    ]);
    expect(first.result).toMatchObject({ status: 'ok', allowedBy: 'user' });
    const [rule] = (await rulesOf(t)).rules;
    expect(rule).toMatchObject({
      server: 'everything',
      scope: 'conversation',
      tool: 'echo',
      conversationId: a,
    });
    expect(rule?.identity?.parts).toMatchObject({ kind: 'stdio', command: process.execPath });

    const again = await callThroughChat(t, a, 'call echo {"message":"two"}');
    expect(again.asked).toHaveLength(0);
    // Stored with the message: the card shows "auto-allowed" after a reload too.
    expect(again.result).toMatchObject({
      status: 'ok',
      allowedBy: 'policy',
      rule: { id: rule?.id, scope: 'conversation' },
    });

    // Another tool in the same conversation, and the same tool in a new one, ask.
    expect((await callThroughChat(t, a, 'call get-sum {"a":1,"b":2}', ['allow-once'])).asked).toHaveLength(1);
    const b = await newConversation(t);
    expect((await callThroughChat(t, b, 'call echo {"message":"three"}', ['deny'])).asked).toHaveLength(1);

    const audit = value(await t.api.listAudit({}));
    expect(audit.map((e) => e.decision)).toEqual([
      'deny',
      'allow_once',
      'policy_allow',
      'allow_conversation',
    ]);
    expect(audit[2]).toMatchObject({
      rule: { id: rule?.id, scope: 'conversation' },
      identityHash: rule?.identity?.hash,
    });

    // Deleting the conversation takes its rule with it, and the UI is told.
    value(await t.api.deleteConversation({ id: a }));
    expect((await rulesOf(t)).rules).toEqual([]);
    expect(eventsOf(t, 'policiesChanged').at(-1)).toEqual({ rules: [] });
  });

  it('"Trust this server" allows all its tools without asking until revoked in one request', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = await newConversation(t);
    await callThroughChat(t, id, 'call echo {"message":"one"}', ['trust-server']);
    expect(eventsOf(t, 'policiesChanged').at(-1)?.rules).toMatchObject([
      { server: 'everything', scope: 'server' },
    ]);
    const sum = await callThroughChat(t, id, 'call get-sum {"a":1,"b":2}');
    expect(sum.asked).toHaveLength(0);
    expect(sum.result).toMatchObject({ allowedBy: 'policy', rule: { scope: 'server' } });

    expect(
      value(await t.api.setServerTrust({ server: 'everything', scope: 'server', enabled: false })),
    ).toEqual({
      rules: [],
    });
    expect((await callThroughChat(t, id, 'call get-sum {"a":1,"b":2}', ['deny'])).asked).toHaveLength(1);
  });

  it('the read-only opt-in runs tools marked read-only; a tool without the mark still asks', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = await newConversation(t);
    const rules = value(
      await t.api.setServerTrust({ server: 'everything', scope: 'read-only', enabled: true }),
    );
    expect(rules.rules).toMatchObject([{ scope: 'read-only', server: 'everything' }]);
    // echo says readOnlyHint: true.
    const echo = await callThroughChat(t, id, 'call echo {"message":"ro"}');
    expect(echo.asked).toHaveLength(0);
    expect(echo.result).toMatchObject({ allowedBy: 'policy', rule: { scope: 'read-only' } });
    // toggle-simulated-logging says readOnlyHint: false.
    const toggle = await callThroughChat(t, id, 'call toggle-simulated-logging {}', ['deny']);
    expect(toggle.asked).toHaveLength(1);
    expect(toggle.result).toMatchObject({ status: 'denied' });
  });

  it('follows what the server claims now: after its annotations change, the opt-in asks and the dialog shows the change', async () => {
    t = await hosts.chat(anthropic.fake, { files: annotations() });
    const id = await newConversation(t);
    value(await t.api.setServerTrust({ server: 'files', scope: 'read-only', enabled: true }));
    expect((await callThroughChat(t, id, 'call lookup {}')).asked).toHaveLength(0);
    // A tool with no annotations at all asks.
    const plain = await callThroughChat(t, id, 'call plain {}', ['allow-once']);
    expect(plain.asked).toHaveLength(1);
    expect(plain.asked[0]?.annotationsChanged).toBeUndefined();

    const from = t.events.length;
    await callThroughChat(t, id, 'call flip {}', ['allow-once']);
    await waitForSnapshot(
      t,
      'files',
      (s) => s.tools.find((tool) => tool.name === 'lookup')?.annotations?.destructiveHint === true,
      'lookup now destructive',
      from,
    );
    const lookup = await callThroughChat(t, id, 'call lookup {}', ['deny']);
    expect(lookup.asked).toHaveLength(1);
    expect(lookup.asked[0]).toMatchObject({
      annotations: { readOnlyHint: false, destructiveHint: true },
      annotationsChanged: { before: { readOnlyHint: true } },
    });
  });

  it('a different program added under the same name inherits no rule; the same program added back keeps them', async () => {
    t = await hosts.chat(anthropic.fake, { files: annotations() });
    const id = await newConversation(t);
    await callThroughChat(t, id, 'call plain {}', ['always-allow']);
    await callThroughChat(t, id, 'call flip {}', ['trust-server']);
    expect((await callThroughChat(t, id, 'call plain {}')).asked).toHaveLength(0);

    // Removed, then another program (other arguments) added under the same name: asks again.
    value(await t.api.removeServer({ name: 'files' }));
    const other = annotations('--variant');
    await t.api.saveServer({
      input: { transport: 'stdio', name: 'files', command: other.command, args: other.args ?? [], env: {} },
    });
    await waitForSnapshot(t, 'files', (s) => s.status === 'connected');
    const replaced = await callThroughChat(t, id, 'call plain {}', ['deny']);
    expect(replaced.asked).toHaveLength(1);
    expect(replaced.result).toMatchObject({ status: 'denied' });
    // The old rules are still listed, bound to the old program, and do not apply.
    const listed = (await rulesOf(t)).rules;
    expect(listed.map((r) => r.scope).sort()).toEqual(['server', 'tool']);
    expect(
      listed.every((r) => r.identity?.parts.kind === 'stdio' && !r.identity.parts.args.includes('--variant')),
    ).toBe(true);

    // Editing the entry back to the exact same program: the rules apply again.
    const same = annotations();
    value(
      await t.api.saveServer({
        originalName: 'files',
        input: { transport: 'stdio', name: 'files', command: same.command, args: same.args ?? [], env: {} },
      }),
    );
    await waitForSnapshot(t, 'files', (s) => s.status === 'connected' && !s.target.includes('--variant'));
    expect((await callThroughChat(t, id, 'call plain {}')).asked).toHaveLength(0);

    // An env variable name added to the entry is another identity too.
    value(
      await t.api.saveServer({
        originalName: 'files',
        input: {
          transport: 'stdio',
          name: 'files',
          command: same.command,
          args: same.args ?? [],
          env: { EXTRA: '1' },
        },
      }),
    );
    await waitForSnapshot(
      t,
      'files',
      (s) =>
        s.status === 'connected' &&
        s.identity?.parts.kind === 'stdio' &&
        s.identity.parts.envNames.length === 1,
    );
    expect((await callThroughChat(t, id, 'call plain {}', ['deny'])).asked).toHaveLength(1);
  });

  it('a call waiting for consent is not run if the server is changed to another program meanwhile', async () => {
    t = await hosts.chat(anthropic.fake, { files: annotations() });
    const id = await newConversation(t);
    const from = t.events.length;
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'call plain {}' }));
    const request = await waitForEvent(t, 'consentRequested', () => true, from);
    const other = annotations('--variant');
    value(
      await t.api.saveServer({
        originalName: 'files',
        input: { transport: 'stdio', name: 'files', command: other.command, args: other.args ?? [], env: {} },
      }),
    );
    value(await t.api.answerConsent({ id: request.id, answer: { decision: 'allow-once' } }));
    await turnEnd(t, turnId, from);
    const result = value(await t.api.getConversation({ id }))
      .messages.flatMap((m) => m.blocks)
      .find((b) => b.type === 'tool_result');
    expect(result).toMatchObject({ status: 'error' });
    expect(JSON.stringify(result)).toContain('was changed while the call waited for approval');
  });

  it('a call made from the Servers view is in the audit trail, marked as made by the person', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    value(
      await t.api.callTool({ server: 'everything', tool: 'echo', argumentsJson: '{"message":"by hand"}' }),
    );
    // Not sent (not JSON): not audited.
    expect((await t.api.callTool({ server: 'everything', tool: 'echo', argumentsJson: '{' })).ok).toBe(false);
    const audit = value(await t.api.listAudit({}));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ server: 'everything', tool: 'echo', decision: 'user_call' });
    expect(audit[0]?.conversationId).toBeUndefined();
    expect(audit[0]?.identityHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a damaged rule store: nothing is auto-allowed, the dialog offers only this call, Settings is told', async () => {
    const dir = tempDir();
    t = await hosts.chat(anthropic.fake, { everything: everything() }, { platform: new NodePlatform(dir) });
    const id = await newConversation(t);
    value(await t.api.setServerTrust({ server: 'everything', scope: 'server', enabled: true }));
    // Another process (or a disk error) leaves a row this version cannot read.
    const db = new Database(join(dir, DATABASE_FILE_NAME));
    db.prepare(
      "INSERT INTO consent_rules (id, server, scope, created_at) VALUES ('bad', 'everything', 'allow-everything', 0)",
    ).run();
    db.close();

    const call = await callThroughChat(t, id, 'call echo {"message":"x"}', ['always-allow']);
    expect(call.asked).toHaveLength(1);
    expect(call.asked[0]?.rulesUnavailable).toMatch(/damaged/);
    // The answer allowed this call only: no rule was made.
    expect(call.result).toMatchObject({ status: 'ok', allowedBy: 'user' });
    const listed = await rulesOf(t);
    expect(listed.problem).toMatch(/damaged/);
    expect(listed.rules.map((r) => r.scope)).toEqual(['server']);
    expect(value(await t.api.listAudit({}))[0]?.decision).toBe('allow_once');
    expect((await t.api.setServerTrust({ server: 'everything', scope: 'read-only', enabled: true })).ok).toBe(
      false,
    );
  });
});
