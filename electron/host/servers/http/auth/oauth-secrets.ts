import type { ServerInput } from '../../../../../shared/model/server-input.js';
import { resolveUrl } from '../http-transport.js';
import type { OAuthStore } from './oauth-store.js';

/**
 * The add/edit form's write-only OAuth secret: a pre-registered client's
 * secret typed in the app goes to the encrypted OAuth store (never to the
 * configuration file), bound to the server's URL like its tokens. A renamed
 * server takes its credentials along.
 */

/** Where `${env:NAME}` in a form's URL is looked up: the environment servers are connected with. */
export type HostEnvironment = () => Promise<{ all: Readonly<Record<string, string | undefined>> }>;

/**
 * The protected resource a form entry names, resolved as a connection
 * resolves it (`${env:…}` expanded), so the secret is found by the
 * connection that needs it. A URL that cannot be resolved yet (an unset
 * variable) keeps its typed form.
 */
async function resourceOf(url: string, environment: HostEnvironment): Promise<string> {
  try {
    return resolveUrl({ config: { url }, env: (await environment()).all, serverName: '' }).href;
  } catch {
    return url;
  }
}

/**
 * Applies the form's secret before the entry is saved; returns how to undo
 * it if saving then fails (a declined launch, a name clash).
 */
export async function applyOAuthSecretInput(
  store: OAuthStore,
  environment: HostEnvironment,
  originalName: string | undefined,
  input: ServerInput,
): Promise<() => Promise<void>> {
  if (originalName !== undefined && originalName !== input.name) await store.rename(originalName, input.name);
  const undoRename = async () => {
    if (originalName !== undefined && originalName !== input.name)
      await store.rename(input.name, originalName);
  };
  if (input.transport !== 'http' || input.oauth === undefined) return undoRename;
  const { clientSecret, clearClientSecret } = input.oauth;
  if (clientSecret === '' && !clearClientSecret) return undoRename;
  const resource = await resourceOf(input.url, environment);
  const before = (await store.get(input.name, resource)).clientSecret;
  await store.update(input.name, resource, (record) => {
    if (clientSecret !== '') record.clientSecret = clientSecret;
    else delete record.clientSecret;
  });
  return async () => {
    await store.update(input.name, resource, (record) => {
      if (before !== undefined) record.clientSecret = before;
      else delete record.clientSecret;
    });
    await undoRename();
  };
}

/** The form's `clientSecretStored` flag. */
export async function withStoredSecretFlag(
  store: OAuthStore,
  environment: HostEnvironment,
  input: ServerInput,
): Promise<ServerInput> {
  if (input.transport !== 'http') return input;
  const resource = await resourceOf(input.url, environment);
  const stored = (await store.get(input.name, resource)).clientSecret !== undefined;
  if (!stored && input.oauth === undefined) return input;
  return {
    ...input,
    oauth: {
      clientId: '',
      scopes: '',
      ...input.oauth,
      clientSecret: '',
      clearClientSecret: false,
      clientSecretStored: stored,
    },
  };
}
