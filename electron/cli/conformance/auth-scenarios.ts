import { z } from 'zod';
import type { HttpServerConfig } from '../../../shared/model/config.js';
import type { ServerSnapshot } from '../../../shared/model/server.js';
import { MemoryOAuthStore } from '../../host/servers/http/auth/oauth-store.js';
import type { ServerConnection } from '../../host/servers/server-connection.js';
import { HostError } from '../../host/errors.js';
import { followAuthorization } from '../follow-authorization.js';
import type { ConformanceContext } from './context.js';
import { authField } from './context.js';
import type { Log } from './scenarios.js';

/**
 * The suite's authorization scenarios, run the way the app runs them: the
 * same ServerConnection and HostOAuthProvider, the server entry's `oauth`
 * block as a person would write it (secrets as `${env:NAME}`), and the
 * person's part automated — pressing Sign in when the server shows
 * "Sign-in required", the browser following the authorization redirects
 * (follow-authorization.ts), and asking again once after a sign-in.
 */

/** The suite's fixed Client ID Metadata Document URL (a company would set its own the same way). */
export const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

export interface AuthScenario {
  /** The server entry's `oauth` block and the environment its `${env:…}` references read. */
  entry(context: ConformanceContext): {
    oauth: NonNullable<HttpServerConfig['oauth']>;
    env: Record<string, string>;
  };
  run(connection: ServerConnection, log: Log): Promise<void>;
}

/** OAuth services for the conformance client: in-memory credentials and the automated browser. */
export function conformanceOAuth() {
  return {
    store: new MemoryOAuthStore(),
    openBrowser: (url: string) => followAuthorization(url),
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    signInTimeoutMs: 20_000,
  };
}

/** Presses Sign in while the server asks for it (at most a few times), as a person would. */
export async function signInWhileAsked(
  connection: ServerConnection,
  snapshot: ServerSnapshot,
): Promise<ServerSnapshot> {
  let current = snapshot;
  for (let attempt = 0; attempt < 3 && current.status === 'sign-in-required'; attempt++) {
    await connection.signIn();
    current = await settled(connection);
  }
  return current;
}

async function settled(connection: ServerConnection): Promise<ServerSnapshot> {
  for (let waited = 0; waited < 25_000; waited += 50) {
    const snapshot = connection.snapshot();
    if (snapshot.auth?.state !== 'waiting' && snapshot.status !== 'connecting') return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return connection.snapshot();
}

/** Lists the tools and calls the scenario's tool; a call refused for want of a sign-in is signed in to and asked again once. */
async function useServer(connection: ServerConnection, log: Log): Promise<void> {
  const tools = connection.snapshot().tools.map((tool) => tool.name);
  log(`tools: ${tools.join(', ')}`);
  if (!tools.includes('test-tool')) return;
  try {
    await connection.callTool('test-tool', '{}');
  } catch (error) {
    if (!(error instanceof HostError) || error.code !== 'sign_in_required') throw error;
    log(`test-tool: ${error.message}; signing in again`);
    const snapshot = await signInWhileAsked(connection, connection.snapshot());
    if (snapshot.status !== 'connected') throw error;
    await connection.callTool('test-tool', '{}');
  }
  log('test-tool: called');
}

const text = z.string().min(1);
const interactive: AuthScenario = { entry: () => ({ oauth: {}, env: {} }), run: useServer };

export function authScenarios(): Record<string, AuthScenario> {
  const scenarios: Record<string, AuthScenario> = {};
  for (const name of [
    'auth/metadata-default',
    'auth/metadata-var1',
    'auth/metadata-var2',
    'auth/metadata-var3',
    'auth/basic-cimd',
    'auth/scope-from-www-authenticate',
    'auth/scope-from-scopes-supported',
    'auth/scope-omitted-when-undefined',
    'auth/scope-step-up',
    'auth/scope-retry-limit',
    'auth/token-endpoint-auth-basic',
    'auth/token-endpoint-auth-post',
    'auth/token-endpoint-auth-none',
    'auth/2025-03-26-oauth-metadata-backcompat',
    'auth/2025-03-26-oauth-endpoint-fallback',
    'auth/resource-mismatch',
    'auth/offline-access-scope',
    'auth/offline-access-not-supported',
    'auth/authorization-server-migration',
    'auth/iss-supported',
    'auth/iss-not-advertised',
    'auth/iss-supported-missing',
    'auth/iss-wrong-issuer',
    'auth/iss-unexpected',
    'auth/iss-normalized',
    'auth/metadata-issuer-mismatch',
  ]) {
    scenarios[name] = interactive;
  }
  // A client registered beforehand: id in the entry, secret from the environment.
  scenarios['auth/pre-registration'] = {
    entry: (context) => ({
      oauth: { clientId: authField(context, 'client_id', text), clientSecret: '${env:OAUTH_CLIENT_SECRET}' },
      env: { OAUTH_CLIENT_SECRET: authField(context, 'client_secret', text) },
    }),
    run: useServer,
  };
  // Machine to machine: client credentials with a secret, or with a private key (private_key_jwt).
  scenarios['auth/client-credentials-basic'] = {
    entry: (context) => ({
      oauth: {
        grant: 'client_credentials',
        clientId: authField(context, 'client_id', text),
        clientSecret: '${env:OAUTH_CLIENT_SECRET}',
      },
      env: { OAUTH_CLIENT_SECRET: authField(context, 'client_secret', text) },
    }),
    run: useServer,
  };
  scenarios['auth/client-credentials-jwt'] = {
    entry: (context) => ({
      oauth: {
        grant: 'client_credentials',
        clientId: authField(context, 'client_id', text),
        tokenEndpointAuthMethod: 'private_key_jwt',
        privateKey: '${env:OAUTH_PRIVATE_KEY}',
        signingAlgorithm: authField(context, 'signing_algorithm', text.optional()) ?? 'ES256',
      },
      env: { OAUTH_PRIVATE_KEY: authField(context, 'private_key_pem', text) },
    }),
    run: useServer,
  };
  // Sender-constrained tokens.
  scenarios['auth/dpop'] = { entry: () => ({ oauth: { dpop: true }, env: {} }), run: useServer };
  scenarios['auth/dpop-nonce'] = scenarios['auth/dpop'];
  // Workload identity federation: the workload's own JWT is the grant (a public client).
  scenarios['auth/wif-jwt-bearer'] = {
    entry: (context) => ({
      oauth: {
        grant: 'jwt_bearer',
        clientId: authField(context, 'client_id', text),
        assertion: '${env:WORKLOAD_TOKEN}',
      },
      env: { WORKLOAD_TOKEN: authField(context, 'valid_jwt', text) },
    }),
    run: useServer,
  };
  // Enterprise-managed: the company IdP exchanges the person's ID token for a grant.
  scenarios['auth/enterprise-managed-authorization'] = {
    entry: (context) => ({
      oauth: {
        grant: 'enterprise',
        clientId: authField(context, 'client_id', text),
        clientSecret: '${env:OAUTH_CLIENT_SECRET}',
        enterprise: {
          issuer: authField(context, 'idp_issuer', text),
          tokenEndpoint: authField(context, 'idp_token_endpoint', text),
          clientId: authField(context, 'idp_client_id', text),
          idToken: '${env:IDP_ID_TOKEN}',
        },
      },
      env: {
        OAUTH_CLIENT_SECRET: authField(context, 'client_secret', text),
        IDP_ID_TOKEN: authField(context, 'idp_id_token', text),
      },
    }),
    run: useServer,
  };
  return scenarios;
}
