import { describe, expect, it } from 'vitest';
import { ConsentBroker } from '../../../../../electron/host/consent/consent-broker.js';
import { networkConsent } from '../../../../../electron/host/consent/network-consent.js';
import type { AuditRecord, ConsentAudit } from '../../../../../electron/host/persistence/consent-audit.js';
import type { ConsentRequest } from '../../../../../shared/model/consent.js';

function setup(
  options: { broker?: boolean; allowAlways?: (server: string, entry: string) => Promise<void> } = {},
) {
  const requests: ConsentRequest[] = [];
  const records: AuditRecord[] = [];
  const saved: string[] = [];
  const warnings: string[] = [];
  const broker = new ConsentBroker({ onRequested: (r) => requests.push(r), onResolved: () => undefined });
  const audit: Pick<ConsentAudit, 'record'> = { record: (entry) => records.push(entry) };
  const network = networkConsent({
    broker: options.broker === false ? undefined : broker,
    audit: () => Promise.resolve(audit as ConsentAudit),
    identityOf: () => 'id-1',
    allowAlways:
      options.allowAlways ??
      ((server, entry) => {
        saved.push(`${server} ${entry}`);
        return Promise.resolve();
      }),
    onWarning: (server, line) => warnings.push(`${server}: ${line}`),
  });
  return { broker, network, requests, records, saved, warnings };
}

const prompt = {
  host: 'api.example.com',
  port: 443,
  via: 'connect' as const,
  alwaysEntry: 'api.example.com',
};

describe('network consent', () => {
  it('asks through the broker; "always" is saved into allowHosts and audited', async () => {
    const { broker, network, requests, records, saved } = setup();
    const asked = network.ask('weather', prompt, new AbortController().signal);
    await Promise.resolve();
    expect(requests).toMatchObject([{ kind: 'network', server: 'weather', prompt }]);
    broker.answer(requests[0]?.id ?? '', { decision: 'always' });
    expect(await asked).toEqual({ decision: 'always' });
    expect(saved).toEqual(['weather api.example.com']);
    expect(records).toMatchObject([
      {
        server: 'weather',
        tool: 'api.example.com:443',
        decision: 'network_always_allow',
        identityHash: 'id-1',
      },
    ]);
  });

  it('refuses a malformed answer, leaving the question open', async () => {
    const { broker, network, requests } = setup();
    const asked = network.ask('weather', prompt, new AbortController().signal);
    await Promise.resolve();
    const id = requests[0]?.id ?? '';
    expect(() => {
      broker.answer(id, { decision: 'trust-server' });
    }).toThrow('Not a valid answer');
    broker.answer(id, { decision: 'deny' });
    expect(await asked).toEqual({ decision: 'deny' });
  });

  it('records an unanswered question (timed out or withdrawn) and fails it', async () => {
    const { network, requests, records } = setup();
    const abort = new AbortController();
    const asked = network.ask('weather', prompt, abort.signal);
    await Promise.resolve();
    expect(requests).toHaveLength(1);
    abort.abort();
    await expect(asked).rejects.toThrow('withdrawn');
    expect(records.map((r) => r.decision)).toEqual(['network_unanswered']);
  });

  it('keeps "always" for the run and says so when it cannot be saved', async () => {
    const { broker, network, requests, warnings } = setup({
      allowAlways: () => Promise.reject(new Error('the file is read-only')),
    });
    const asked = network.ask('weather', prompt, new AbortController().signal);
    await Promise.resolve();
    broker.answer(requests[0]?.id ?? '', { decision: 'always' });
    expect(await asked).toEqual({ decision: 'always' });
    expect(warnings).toEqual([
      'weather: api.example.com is allowed until the server stops, but could not be saved: the file is read-only',
    ]);
  });

  it('with nobody to ask (the command line), denies with one line', async () => {
    const { network, requests } = setup({ broker: false });
    expect(await network.ask('weather', prompt, new AbortController().signal)).toEqual({
      decision: 'deny',
      reason: 'no one can be asked here (command line): add the host to sandbox.allowHosts',
    });
    expect(requests).toEqual([]);
  });

  it('keeps the hosts denied per server', () => {
    const { network } = setup();
    network.deniedFor('a').add('x:1');
    expect(network.deniedFor('a').has('x:1')).toBe(true);
    expect(network.deniedFor('b').size).toBe(0);
  });
});
