/**
 * The sign-in state in one place: each SignInReason has its one line, and a
 * browser sign-in under way is not overwritten by a connect or request that
 * fails or succeeds meanwhile (the sign-in's own end decides).
 */
import { describe, expect, it } from 'vitest';
import {
  SignInNeededError,
  SignInStatus,
  signInLine,
} from '../../../../../../../electron/host/servers/http/auth/sign-in-state.js';
import { HostError } from '../../../../../../../electron/host/errors.js';

describe('signInLine', () => {
  it('says one line per reason', () => {
    expect(signInLine({ code: 'not-signed-in' })).toBe('Sign in to use this server');
    expect(signInLine({ code: 'not-signed-in', host: 'as.example' })).toBe(
      'Sign in at as.example to use this server',
    );
    expect(signInLine({ code: 'asks-again' })).toBe('The server asks for a new sign-in');
    expect(signInLine({ code: 'more-permissions', scope: 'mcp:admin' })).toBe(
      'The server needs more permissions (mcp:admin); sign in again to grant them',
    );
    // Server text that is not plain printable ASCII is left out.
    expect(signInLine({ code: 'more-permissions', scope: 'a\nb' })).toBe(
      'The server needs more permissions; sign in again to grant them',
    );
    expect(signInLine({ code: 'expired-or-revoked' })).toBe(
      'The sign-in expired or was revoked; sign in again',
    );
    expect(signInLine({ code: 'signed-out', outcome: { kind: 'revoked' } })).toBe('Signed out');
    const failure = new HostError('sign_in_required', 'Server "x": refused');
    expect(signInLine({ code: 'failed', failure })).toBe('Server "x": refused');
    expect(new SignInNeededError({ code: 'asks-again' }).message).toBe('The server asks for a new sign-in');
  });
});

describe('SignInStatus', () => {
  it('keeps a browser sign-in under way until it ends itself', () => {
    const status = new SignInStatus();
    status.require({ code: 'asks-again' });
    expect(status.state).toEqual({ kind: 'required', reason: { code: 'asks-again' } });
    const signingIn = { kind: 'signing-in' as const, until: 1, cancel: () => undefined };
    status.state = signingIn;
    status.require({ code: 'expired-or-revoked' });
    status.clear();
    expect(status.state).toBe(signingIn);
    status.state = { kind: 'idle' };
    status.require({ code: 'expired-or-revoked' });
    status.clear();
    expect(status.state).toEqual({ kind: 'idle' });
  });
});
