import { afterEach, describe, expect, it } from 'vitest';
import { HostError } from '../../../../../../electron/host/errors.js';
import type { ServerSnapshot } from '../../../../../../shared/model/server.js';
import { nextSnapshot, openConnection, stopConnections } from '../../../../../helpers/connection.js';
import { FakeTransport, FakeUnauthorized } from '../../../../../helpers/fake-transport.js';
import type { FakeStep } from '../../../../../helpers/fake-transport.js';

// The lifecycle (lifecycle/connection-lifecycle.ts) through ServerConnection,
// with its transport replaced by a fake one: no process, no socket, a real
// SDK client talking to a real in-process server.

afterEach(stopConnections);

const ENTRY = { command: 'fake-server' };

function open(steps: FakeStep[], options: { withSignIn?: boolean; connectTimeout?: number } = {}) {
  const transport = new FakeTransport(steps, options.withSignIn ?? false);
  const config =
    options.connectTimeout !== undefined ? { ...ENTRY, connectTimeout: options.connectTimeout } : ENTRY;
  const opened = openConnection(config, {
    transportFactory: transport.factory,
    pingIntervalMs: 0,
    restart: { baseDelayMs: 40, maxDelayMs: 1000, maxCrashes: 3 },
  });
  return { ...opened, transport };
}

const statuses = (snapshots: readonly ServerSnapshot[]) =>
  snapshots.map((s) => s.status).filter((s, i, all) => i === 0 || all[i - 1] !== s);

describe('connection lifecycle against a fake transport', () => {
  it('connects: connecting, then connected with the server facts, its catalog and working requests', async () => {
    const { connection, snapshots } = open([{ kind: 'serve', tools: ['echo', 'add'] }]);
    const snapshot = await connection.start();
    expect(statuses(snapshots)).toEqual(['connecting', 'connected']);
    expect(snapshot.status).toBe('connected');
    expect(snapshot.serverInfo).toEqual({ name: 'fake-server', version: '1.2.3' });
    expect(snapshot.tools.map((t) => t.name).sort()).toEqual(['add', 'echo']);
    expect(snapshot.counts.tools).toBe(2);
    expect(snapshot.connectedAt).toBeTypeOf('number');
    expect(snapshot.error).toBeUndefined();
    const result = await connection.callTool('add', '{}');
    expect(result.content).toEqual([{ type: 'text', text: 'add' }]);
  });

  it('a handshake timeout fails the start with the transport’s line; the entry’s limit reaches the transport', async () => {
    const line =
      'Server "fixture" did not complete the MCP handshake within 1 s: it has not answered initialize';
    const { connection, transport } = open([{ kind: 'fail', error: new HostError('timeout', line) }], {
      connectTimeout: 1000,
    });
    const snapshot = await connection.start();
    expect(transport.attempts[0]?.connectTimeoutMs).toBe(1000);
    expect(snapshot.status).toBe('failed');
    expect(snapshot.error).toBe(line);
    expect(snapshot.tools).toEqual([]);
    expect(snapshot.connectedAt).toBeUndefined();
    // Nothing of the failed attempt is left running.
    expect(transport.abandoned).toBe(1);
  });

  it('a crash restarts with backoff, the failed restart counts as another crash, and it gives up at the limit', async () => {
    const { connection, snapshots, transport } = open([
      { kind: 'serve' },
      { kind: 'fail', error: new HostError('server_exited', 'Server "fixture" exited with code 2') },
      { kind: 'serve' },
    ]);
    await connection.start();
    const first = transport.sessions[0];
    first?.crash('Last stderr: boom');
    const restarting = connection.snapshot();
    expect(restarting.status).toBe('restarting');
    expect(restarting.error).toContain('Last stderr: boom');
    expect(restarting.crashCount).toBe(1);
    expect(restarting.restartAt).toBeGreaterThan(Date.now());
    expect(restarting.connectedAt).toBeUndefined();
    expect(first?.closedWith).toBe(true);
    // The first restart fails: a second crash, with a longer delay.
    const second = await nextSnapshot(snapshots, (s) => s.status === 'restarting' && s.crashCount === 2);
    expect(second.error).toBe('Server "fixture" exited with code 2');
    // The one after connects, with a new session.
    const connected = await nextSnapshot(snapshots, (s) => s.status === 'connected');
    expect(connected.crashCount).toBe(2);
    expect(transport.sessions).toHaveLength(2);
    // The third crash within the window is the last one: no more restarts.
    transport.sessions[1]?.crash('Last stderr: again');
    const failed = connection.snapshot();
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/Crashed 3 times within 5 min, so it was not restarted again/);
    expect(failed.restartAt).toBeUndefined();
    // A person's start clears the count and connects again.
    const started = await connection.start();
    expect(started.status).toBe('connected');
    expect(started.crashCount).toBeUndefined();
  });

  it('stop while starting: stopped at once, the attempt abandoned, and its late session closed', async () => {
    const { connection, snapshots, transport } = open([{ kind: 'hang' }]);
    const starting = connection.start();
    await nextSnapshot(snapshots, (s) => s.status === 'connecting', 0);
    const stopped = await connection.stop();
    expect(stopped.status).toBe('stopped');
    expect(stopped.startingSince).toBeUndefined();
    expect(transport.abandoned).toBe(1);
    transport.releaseHang();
    expect((await starting).status).toBe('stopped');
    expect(transport.sessions[0]?.closedWith).toBe(false);
    expect(connection.snapshot().status).toBe('stopped');
    expect(statuses(snapshots)).toEqual(['connecting', 'stopped']);
  });

  it('a connect refused for want of a sign-in waits for one, and a sign-in connects', async () => {
    const { connection, transport } = open([{ kind: 'fail', error: new FakeUnauthorized('401') }], {
      withSignIn: true,
    });
    const snapshot = await connection.start();
    expect(snapshot.status).toBe('sign-in-required');
    expect(snapshot.error).toBeUndefined();
    expect(transport.auth.required).toBe('Sign-in required: the server refused the token');
    await connection.signIn();
    await expect.poll(() => connection.currentStatus).toBe('connected');
    expect(transport.auth.signInCalls).toBe(1);
    expect(transport.auth.required).toBeUndefined();
  });

  it('a sign-in the person cannot finish leaves the server waiting for one; a stdio-like entry cannot sign in', async () => {
    const { connection, transport } = open([{ kind: 'fail', error: new FakeUnauthorized('401') }], {
      withSignIn: true,
    });
    await connection.start();
    transport.auth.outcome = new Error('The browser sign-in was cancelled');
    await connection.signIn();
    await expect.poll(() => connection.currentStatus).toBe('sign-in-required');
    const plain = open([{ kind: 'serve' }]);
    await expect(plain.connection.signIn()).rejects.toThrow('is not a remote server that signs in');
  });

  it('era fallback: a transport that tries again in the 2025 era ends connected on the last try, with its catalog', async () => {
    const { connection, transport } = open([{ kind: 'serve', tools: ['legacy-tool'], refuseModern: true }]);
    const snapshot = await connection.start();
    expect(snapshot.status).toBe('connected');
    expect(snapshot.era).toBe('legacy');
    // The first try's catalog was never loaded: had the lifecycle kept it, there would be no tools.
    expect(snapshot.tools.map((t) => t.name)).toEqual(['legacy-tool']);
    expect(transport.attempts).toHaveLength(1);
    expect(transport.sessions).toHaveLength(1);
  });
});
