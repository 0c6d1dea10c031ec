import { describe, expect, it } from 'vitest';
import { ConsentBroker } from '../../../../../electron/host/consent/consent-broker.js';
import { createHost } from '../../../../../electron/host/host.js';
import type { ConsentOutcome, ConsentRequest } from '../../../../../shared/model/consent.js';
import { ConsentRequestSchema } from '../../../../../shared/model/consent.js';
import { dispatch } from '../../../../../electron/host/ipc/dispatch.js';
import { NodePlatform } from '../../../../../electron/host/node-platform.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function broker() {
  const requested: ConsentRequest[] = [];
  const resolved: { id: string; outcome: ConsentOutcome }[] = [];
  const consent = new ConsentBroker({
    onRequested: (request) => requested.push(request),
    onResolved: (id, outcome) => resolved.push({ id, outcome }),
    rememberResolved: 3,
  });
  return { consent, requested, resolved };
}

const toolPrompt = { tool: 'echo', argumentsJson: '{\n  "message": "hi"\n}' };

describe('ConsentBroker', () => {
  it('issues an unguessable id, shows the request and resolves with the answer', async () => {
    const { consent, requested, resolved } = broker();
    const answer = consent.ask('tool', 'everything', toolPrompt);
    expect(requested).toHaveLength(1);
    const request = requested[0];
    if (!request) throw new Error('no request');
    expect(ConsentRequestSchema.parse(request)).toEqual(request);
    expect(request.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(consent.pending()).toEqual([request]);

    consent.answer(request.id, { decision: 'allow-once' });
    await expect(answer).resolves.toEqual({ decision: 'allow-once' });
    expect(resolved).toEqual([{ id: request.id, outcome: 'answered' }]);
    expect(consent.pending()).toEqual([]);
  });

  it('gives every request its own id', () => {
    const { consent, requested } = broker();
    for (let i = 0; i < 50; i++) void consent.ask('tool', 's', toolPrompt).catch(() => undefined);
    expect(new Set(requested.map((r) => r.id)).size).toBe(50);
  });

  it('refuses a forged id', () => {
    const { consent } = broker();
    void consent.ask('tool', 's', toolPrompt);
    expect(() => {
      consent.answer('AAAAAAAAAAAAAAAAAAAAAA', { decision: 'allow-once' });
    }).toThrow('No such consent request');
  });

  it('refuses a repeated answer, and the first answer stands', async () => {
    const { consent, requested } = broker();
    const answer = consent.ask('tool', 's', toolPrompt);
    const id = requested[0]?.id ?? '';
    consent.answer(id, { decision: 'deny' });
    expect(() => {
      consent.answer(id, { decision: 'always-allow' });
    }).toThrow('already answered');
    await expect(answer).resolves.toEqual({ decision: 'deny' });
  });

  it('refuses a stale answer to a withdrawn request', async () => {
    const { consent, requested, resolved } = broker();
    const controller = new AbortController();
    const answer = consent.ask('tool', 's', toolPrompt, controller.signal);
    const id = requested[0]?.id ?? '';
    controller.abort();
    await expect(answer).rejects.toMatchObject({ code: 'cancelled' });
    expect(resolved).toEqual([{ id, outcome: 'withdrawn' }]);
    expect(() => {
      consent.answer(id, { decision: 'allow-once' });
    }).toThrow('withdrawn');
  });

  it('refuses an answer of the wrong shape and keeps the request pending', async () => {
    const { consent, requested } = broker();
    const answer = consent.ask('tool', 's', toolPrompt);
    const id = requested[0]?.id ?? '';
    for (const bad of [{ decision: 'allow-forever' }, { decision: 'allow-once', extra: 1 }, 'yes', null]) {
      expect(() => {
        consent.answer(id, bad);
      }).toThrow('Not a valid answer');
    }
    expect(consent.pending()).toHaveLength(1);
    consent.answer(id, { decision: 'allow-once' });
    await expect(answer).resolves.toEqual({ decision: 'allow-once' });
  });

  it('withdraws the requests of a server that went away, and only those', async () => {
    const { consent } = broker();
    const a = consent.ask('tool', 'a', toolPrompt);
    const b = consent.ask('tool', 'b', toolPrompt);
    consent.withdrawServer('a');
    await expect(a).rejects.toMatchObject({ code: 'cancelled' });
    expect(consent.pending().map((r) => r.server)).toEqual(['b']);
    consent.withdrawAll();
    await expect(b).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('does not show a request whose signal was already aborted', async () => {
    const { consent, requested } = broker();
    await expect(consent.ask('tool', 's', toolPrompt, AbortSignal.abort())).rejects.toMatchObject({
      code: 'cancelled',
    });
    expect(requested).toEqual([]);
  });

  it('forgets old resolved ids beyond its memory, which then read as unknown', async () => {
    const { consent, requested } = broker();
    for (let i = 0; i < 4; i++) {
      const answer = consent.ask('tool', 's', toolPrompt);
      consent.answer(requested[i]?.id ?? '', { decision: 'deny' });
      await answer;
    }
    expect(() => {
      consent.answer(requested[0]?.id ?? '', { decision: 'deny' });
    }).toThrow('No such consent request');
    expect(() => {
      consent.answer(requested[3]?.id ?? '', { decision: 'deny' });
    }).toThrow('already answered');
  });

  it('is reachable only through answerConsent, which validates the id before the broker sees it', async () => {
    const host = createHost({
      platform: new NodePlatform(mkdtempSync(join(tmpdir(), 'consent-'))),
      shell: 'headless',
      appVersion: '0.0.0',
      configPath: join(mkdtempSync(join(tmpdir(), 'consent-cfg-')), 'mcp.json'),
    });
    const events: string[] = [];
    host.onEvent((event) => events.push(event));
    const answer = host.consent.ask('tool', 's', toolPrompt);
    const [request] = host.consent.pending();
    if (!request) throw new Error('no request');

    const listed = await dispatch(host.handlers, 'listConsents', {});
    expect(listed).toEqual({ ok: true, value: [request] });
    const forged = await dispatch(host.handlers, 'answerConsent', { id: '../../x', answer: {} });
    expect(forged).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    const good = await dispatch(host.handlers, 'answerConsent', {
      id: request.id,
      answer: { decision: 'allow-once' },
    });
    expect(good).toEqual({ ok: true, value: null });
    const replay = await dispatch(host.handlers, 'answerConsent', {
      id: request.id,
      answer: { decision: 'allow-once' },
    });
    expect(replay).toMatchObject({ ok: false, error: { code: 'conflict' } });
    await expect(answer).resolves.toEqual({ decision: 'allow-once' });
    expect(events).toEqual(['consentRequested', 'consentResolved']);
    await host.dispose();
  });
});
