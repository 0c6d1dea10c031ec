import { useEffect, useRef, useState } from 'react';
import type { HostErrorValue, Result } from '../../../../shared/ipc/result.js';
import type { ServerAuth, ServerSnapshot } from '../../../../shared/model/server.js';
import { safeLinkUrl } from '../../common/safe-url.js';
import { useActions, useHostReachable } from '../../store/store-context.js';
import { Spinner } from '../../common/spinner.js';
import { SignedInFacts } from './signed-in-facts.js';
import { WaitingCountdown } from './waiting-countdown.js';
import { SecretStorageNote } from '../../common/secret-storage.js';

type AuthState = ServerAuth['state'];
type Busy = 'sign-in' | 'cancel' | 'sign-out' | undefined;

/** What a screen reader hears when the sign-in state changes (the panel's content is not re-read). */
const ANNOUNCEMENTS: Readonly<Record<AuthState, string>> = {
  required: 'Sign-in required.',
  waiting: 'Waiting for you to finish signing in in your browser.',
  'signed-in': 'Signed in.',
};

/**
 * OAuth sign-in of a remote server: "Sign-in required" with a Sign in
 * button; while the browser is open, a countdown and Cancel; once signed in,
 * who issued the sign-in, for whom, what it allows and until when, and Sign
 * out. Nothing for a server that does not use OAuth.
 */
export function SignInPanel({ server }: { server: ServerSnapshot }) {
  const { signInServer, cancelSignIn, signOutServer } = useActions();
  const reachable = useHostReachable();
  const [busy, setBusy] = useState<Busy>();
  /** The last action's error, with the state it failed in: a new state makes it stale. */
  const [error, setError] = useState<{ state: AuthState | undefined; value: HostErrorValue }>();
  const panelRef = useRef<HTMLDivElement>(null);
  /** Set when a button here was pressed: afterwards the button of the state then shown takes the focus. */
  const acted = useRef(false);
  const auth = authOf(server);
  const state = auth?.state;
  // Only an http(s) page, checked again here although the host's schema already does.
  const authorizationLink = auth?.authorizationUrl !== undefined ? safeLinkUrl(auth.authorizationUrl) : '';

  useEffect(() => {
    // Once the action is over (its button was disabled meanwhile, which drops focus to the body).
    if (!acted.current || busy !== undefined || state === undefined) return;
    acted.current = false;
    const active = document.activeElement;
    if (active === document.body || panelRef.current?.contains(active) === true) {
      panelRef.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
    }
  }, [state, busy]);

  // Remote servers only: the live region exists before the first state arrives, so that state is heard.
  if (server.transport !== 'http') return null;

  const run = async (kind: Exclude<Busy, undefined>, action: (name: string) => Promise<Result<unknown>>) => {
    acted.current = true;
    setBusy(kind);
    setError(undefined);
    const result = await action(server.name);
    setBusy(undefined);
    if (!result.ok) setError({ state, value: result.error });
  };

  return (
    <div className="sign-in" ref={panelRef}>
      <p className="visually-hidden" aria-live="polite">
        {state !== undefined ? ANNOUNCEMENTS[state] : ''}
      </p>
      {auth?.state === 'required' && (
        <div className="notice notice--warning sign-in__notice">
          <div className="sign-in__text">
            <strong>Sign-in required.</strong>{' '}
            <span>{auth.message ?? 'This server asks you to sign in before it can be used.'}</span>
            <p className="notice__detail">
              {/* The host's message usually names the authorization server already. */}
              {auth.issuer !== undefined && auth.message === undefined
                ? `Opens the sign-in page of ${hostOf(auth.issuer)} in your browser.`
                : 'Opens the sign-in page in your browser.'}
            </p>
            <SecretStorageNote className="notice__detail" />
            {auth.clientIssuer !== undefined && (
              <p className="notice__detail">
                The client ID in this server’s settings belongs to{' '}
                <span className="mono">{auth.clientIssuer}</span>; no other authorization server gets it.
              </p>
            )}
          </div>
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy !== undefined || !reachable}
            onClick={() => {
              void run('sign-in', signInServer);
            }}
          >
            {busy === 'sign-in' && <Spinner />}
            Sign in
          </button>
        </div>
      )}
      {auth?.state === 'waiting' && (
        <div className="notice notice--info sign-in__notice">
          <div className="sign-in__text">
            <strong>
              <Spinner /> Waiting for you to finish signing in in your browser…
            </strong>
            <p className="notice__detail">
              {auth.issuer !== undefined ? `At ${hostOf(auth.issuer)}. ` : ''}
              {auth.waitingUntil !== undefined && <WaitingCountdown until={auth.waitingUntil} />}
            </p>
            {authorizationLink !== '' && (
              <p className="notice__detail">
                Did no browser open?{' '}
                <a href={authorizationLink} target="_blank" rel="noopener noreferrer">
                  Open the sign-in page
                </a>
              </p>
            )}
          </div>
          <button
            type="button"
            className="btn"
            disabled={busy !== undefined || !reachable}
            onClick={() => {
              void run('cancel', cancelSignIn);
            }}
          >
            {busy === 'cancel' && <Spinner />}
            Cancel
          </button>
        </div>
      )}
      {auth?.state === 'signed-in' && (
        <section className="sign-in__signed-in" aria-label="Sign-in">
          <SignedInFacts auth={auth} />
          <button
            type="button"
            className="btn"
            disabled={busy !== undefined || !reachable}
            onClick={() => {
              void run('sign-out', signOutServer);
            }}
          >
            {busy === 'sign-out' && <Spinner />}
            Sign out
          </button>
        </section>
      )}
      {error !== undefined && error.state === state && (
        <p className="sign-in__error" role="alert">
          {firstLine(error.value.message)}
        </p>
      )}
    </div>
  );
}

/**
 * The auth state to show. A server the host reports as "sign-in-required"
 * needs a sign-in whatever else its auth says (held tokens were refused).
 */
function authOf(server: ServerSnapshot): ServerAuth | undefined {
  const { auth } = server;
  if (server.status !== 'sign-in-required') return auth;
  if (auth === undefined || auth.state === 'signed-in') return { ...auth, state: 'required' };
  return auth;
}

/** "auth.example.com" of an issuer URL; the text as given when it is not one. */
export function hostOf(issuer: string): string {
  try {
    return new URL(issuer).host || issuer;
  } catch {
    return issuer;
  }
}

/** Errors are shown as one line: a multi-line message (never expected) is cut at its first line. */
function firstLine(message: string): string {
  const line = message.split(/\r?\n/, 1)[0] ?? '';
  return line.trim() === '' ? 'Something went wrong.' : line;
}
