import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FileEraVerdicts,
  LEGACY_VERDICT_MAX_AGE_MS,
  priorFor,
  stdioIdentity,
} from '../../../../../../electron/host/servers/stdio/era-verdicts.js';
import type { EraVerdict } from '../../../../../../electron/host/servers/stdio/era-verdicts.js';
import { HandshakeWatch } from '../../../../../../electron/host/servers/stdio/handshake-watch.js';
import { tempDir } from '../../../../../helpers/servers.js';

const discover = {
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
};

describe('stdioIdentity', () => {
  const base = { command: 'npx', args: ['-y', 'pkg@1.0.0'], env: { TOKEN: 'a', MODE: 'x' }, cwd: '/w' };

  it('is stable for the same program, whatever the order of env keys', () => {
    expect(stdioIdentity(base)).toBe(stdioIdentity({ ...base, env: { MODE: 'x', TOKEN: 'a' } }));
  });

  it.each([
    ['command', { command: 'node' }],
    ['arguments (a new version)', { args: ['-y', 'pkg@1.1.0'] }],
    ['env names', { env: { TOKEN: 'a', MODE: 'x', EXTRA: '1' } }],
    ['env values', { env: { TOKEN: 'b', MODE: 'x' } }],
    ['folder', { cwd: '/other' }],
  ])('changes with the %s', (_what, change) => {
    expect(stdioIdentity({ ...base, ...change })).not.toBe(stdioIdentity(base));
  });

  it('never contains an env value', () => {
    expect(stdioIdentity({ command: 'x', env: { TOKEN: 'secret-value' } })).not.toContain('secret');
  });
});

describe('priorFor', () => {
  const legacy: EraVerdict = { identity: 'id', era: 'legacy', decidedAt: 1_000 };
  it('gives a legacy verdict for the same program within a week, not after, not for another program', () => {
    expect(priorFor(legacy, 'id', 2_000)).toEqual({ kind: 'legacy' });
    expect(priorFor(legacy, 'id', 1_000 + LEGACY_VERDICT_MAX_AGE_MS)).toBeUndefined();
    expect(priorFor(legacy, 'other', 2_000)).toBeUndefined();
    expect(priorFor(undefined, 'id')).toBeUndefined();
  });

  it('gives a modern verdict with the discover result it was made from', () => {
    const modern: EraVerdict = { identity: 'id', era: 'modern', discover, decidedAt: 0 };
    expect(priorFor(modern, 'id', Date.now())).toEqual({ kind: 'modern', discover });
  });
});

describe('FileEraVerdicts', () => {
  it('keeps verdicts across instances, and ignores a malformed file or entry', async () => {
    const path = join(tempDir(), 'protocol-eras.json');
    const first = new FileEraVerdicts(path);
    first.set('a', { identity: 'ia', era: 'modern', discover, serverVersion: 's@2', decidedAt: 5 });
    first.set('b', { identity: 'ib', era: 'legacy', decidedAt: 6 });
    first.delete('b');
    await first.flush();
    const second = new FileEraVerdicts(path);
    expect(second.get('a')).toEqual({
      identity: 'ia',
      era: 'modern',
      discover,
      serverVersion: 's@2',
      decidedAt: 5,
    });
    expect(second.get('b')).toBeUndefined();

    const stored = JSON.parse(readFileSync(path, 'utf8')) as { servers: Record<string, unknown> };
    stored.servers.c = { identity: 'ic', era: 'modern', discover: { nope: true }, decidedAt: 1 };
    stored.servers.d = 'not a verdict';
    writeFileSync(path, JSON.stringify(stored));
    const third = new FileEraVerdicts(path);
    expect(third.get('a')?.era).toBe('modern');
    expect(third.get('c')).toBeUndefined();
    expect(third.get('d')).toBeUndefined();

    writeFileSync(path, '{not json');
    expect(new FileEraVerdicts(path).get('a')).toBeUndefined();
  });
});

describe('HandshakeWatch', () => {
  const probe = { jsonrpc: '2.0' as const, id: 'server-discover-probe-1', method: 'server/discover' };
  const init = { jsonrpc: '2.0' as const, id: 0, method: 'initialize' };

  it('says what the server is silent on', () => {
    const watch = new HandshakeWatch();
    expect(watch.waitingFor).toBeUndefined();
    watch.sent(probe);
    expect(watch.waitingFor).toBe('server/discover');
    expect(watch.probing).toBe(true);
    watch.sent(init);
    expect(watch.waitingFor).toBe('nothing');
    expect(watch.probing).toBe(false);
  });

  it('lets a probe reply in time through, and holds back a late one, reporting it', () => {
    const inTime = new HandshakeWatch();
    inTime.sent(probe);
    expect(inTime.received({ jsonrpc: '2.0', id: probe.id, error: { code: -32601, message: 'no' } })).toBe(
      false,
    );
    inTime.sent(init);
    expect(inTime.waitingFor).toBe('initialize');
    expect(inTime.received({ jsonrpc: '2.0', id: 0, result: {} })).toBe(false);
    expect(inTime.waitingFor).toBeUndefined();

    const late = new HandshakeWatch();
    const seen: unknown[] = [];
    late.onLateProbeReply = (result) => seen.push(result);
    late.sent(probe);
    late.sent(init);
    expect(late.received({ jsonrpc: '2.0', id: probe.id, result: discover })).toBe(true);
    expect(seen).toEqual([discover]);
  });
});
