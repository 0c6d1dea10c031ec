import { describe, expect, it } from 'vitest';
import type { ToolCallResult } from '../../../../../shared/model/server.js';
import { HostError } from '../../../../../electron/host/errors.js';
import {
  SandboxedCallError,
  withBlockedAttempts,
} from '../../../../../electron/host/servers/sandbox-attribution.js';
import { BlockedAttempts } from '../../../../../electron/host/servers/stdio/sandbox/sandbox-violations.js';

const context = { home: '/home/ann', networkDenied: true, hidden: [], own: [] };
const failed: ToolCallResult = { isError: true, content: [{ type: 'text', text: 'no' }], durationMs: 1 };
const done: ToolCallResult = { isError: false, content: [], durationMs: 1 };
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A sandboxed server's stderr, read by the real BlockedAttempts. */
function sandboxed() {
  const attempts = new BlockedAttempts(context, () => undefined);
  return { attempts, source: { blockedSince: (at: number) => attempts.since(at) } };
}

describe('what the sandbox blocked during one tool call', () => {
  it('attaches the attempts seen between the start and the end of a failed call, not those before', async () => {
    const { attempts, source } = sandboxed();
    attempts.line("Error: EACCES: permission denied, open '/home/ann/.aws/credentials'");
    await wait(5);
    const result = await withBlockedAttempts(source, () => {
      attempts.line("Error: EACCES: permission denied, open '/home/ann/.ssh/id_ed25519'");
      // Already logged once for the server: still this call's.
      attempts.line("Error: EACCES: permission denied, open '/home/ann/.ssh/id_ed25519'");
      return Promise.resolve(failed);
    });
    expect(result.sandboxBlocked).toEqual(['read ~/.ssh/id_ed25519']);
  });

  it('waits the grace period for a refusal that arrives just after the reply', async () => {
    const { attempts, source } = sandboxed();
    const result = await withBlockedAttempts(
      source,
      () => {
        setTimeout(() => {
          attempts.line('connect ECONNREFUSED 127.0.0.1:5432');
        }, 20);
        return Promise.resolve(failed);
      },
      undefined,
      80,
    );
    expect(result.sandboxBlocked).toEqual(['connect to 127.0.0.1:5432']);
  });

  it('carries them on a thrown failure, keeping its code and message', async () => {
    const { attempts, source } = sandboxed();
    const call = withBlockedAttempts(source, () => {
      attempts.line("EROFS: read-only file system, open '/home/ann/out.txt'");
      return Promise.reject(new HostError('server_exited', 'Server "s" failed tools/call x'));
    });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxedCallError);
    expect(error).toMatchObject({
      code: 'server_exited',
      message: 'Server "s" failed tools/call x',
      sandboxBlocked: ['write ~/out.txt'],
    });
  });

  it('leaves successful calls, clean failures and unsandboxed servers alone', async () => {
    const { attempts, source } = sandboxed();
    const ok = await withBlockedAttempts(source, () => {
      attempts.line("Error: EACCES: permission denied, open '/home/ann/.ssh/id_rsa'");
      return Promise.resolve(done);
    });
    expect(ok).toBe(done);
    const clean = sandboxed();
    expect(await withBlockedAttempts(clean.source, () => Promise.resolve(failed), undefined, 10)).toEqual(
      failed,
    );
    const started = performance.now();
    const unconfined = { blockedSince: () => undefined };
    expect(await withBlockedAttempts(unconfined, () => Promise.resolve(failed))).toBe(failed);
    expect(await withBlockedAttempts({}, () => Promise.resolve(failed))).toBe(failed);
    // No grace period where nothing is watched.
    expect(performance.now() - started).toBeLessThan(100);
  });
});
