import type { ServerAuth } from '../../../../shared/model/server.js';
import { formatRelative } from './relative-time.js';
import { useNow } from './use-now.js';

type Client = NonNullable<ServerAuth['client']>;

/** How the host is known to the authorization server, in words. */
const CLIENT_LABELS: Readonly<Record<Client, string>> = {
  'pre-registered': 'Pre-registered client (from this server’s settings)',
  'metadata-document': 'Client ID Metadata Document (the app’s published client)',
  dynamic: 'Dynamic client registration',
  'client-credentials': 'Client credentials (machine to machine, no browser)',
  'workload-identity': 'Workload identity (this machine’s own token, no browser)',
  enterprise: 'Enterprise-managed (your company’s identity provider, no browser)',
};

/** A minute is the finest step the expiry is shown in. */
const TICK_MS = 15_000;

/** Who signed in where, what the sign-in allows and until when. */
export function SignedInFacts({ auth }: { auth: ServerAuth }) {
  const now = useNow(auth.expiresAt !== undefined, TICK_MS);
  return (
    <dl className="facts sign-in__facts">
      <div className="facts__row facts__row--wide">
        <dt>Signed in</dt>
        <dd>
          <span className="sign-in__check" aria-hidden="true" />
          {auth.account !== undefined ? (
            <strong className="sign-in__account">{auth.account}</strong>
          ) : (
            <span>Account not named by the authorization server</span>
          )}
        </dd>
      </div>
      {auth.issuer !== undefined && (
        <div className="facts__row">
          <dt>Issuer</dt>
          <dd className="mono">{auth.issuer}</dd>
        </div>
      )}
      <div className="facts__row">
        <dt>Access token</dt>
        <dd>{expiryText(auth, now)}</dd>
        {auth.expiresAt !== undefined && (
          <dd className="facts__note">
            {new Date(auth.expiresAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
          </dd>
        )}
      </div>
      {auth.client !== undefined && (
        <div className="facts__row">
          <dt>Registered as</dt>
          <dd>{CLIENT_LABELS[auth.client]}</dd>
          {auth.clientIssuer !== undefined && (
            <dd className="facts__note">
              Belongs to <span className="mono">{auth.clientIssuer}</span>; no other authorization server gets
              its secret
            </dd>
          )}
        </div>
      )}
      <div className="facts__row facts__row--wide">
        <dt>Granted scopes</dt>
        <dd>
          {auth.scopes === undefined ? (
            'Not stated by the authorization server'
          ) : auth.scopes.length === 0 ? (
            'None'
          ) : (
            <ul className="sign-in__scopes" aria-label="Granted scopes">
              {auth.scopes.map((scope) => (
                <li key={scope} className="tag mono">
                  {scope}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
    </dl>
  );
}

/** "Expires in 58 min · renews itself", "Expired 2 min ago · you will be asked to sign in again", … */
export function expiryText(auth: Pick<ServerAuth, 'expiresAt' | 'refreshable'>, now: number): string {
  const renews = auth.refreshable === true;
  if (auth.expiresAt === undefined) {
    return renews ? 'No expiry stated · renews itself' : 'No expiry stated';
  }
  const when = formatRelative(auth.expiresAt, now);
  if (auth.expiresAt > now) {
    return `Expires ${when} · ${renews ? 'renews itself' : 'does not renew: sign in again then'}`;
  }
  return `Expired ${when === 'now' ? 'just now' : when} · ${
    renews ? 'renewed at the next request' : 'sign in again when asked'
  }`;
}
