import { byTransport } from '../../../shared/model/config.js';
import type { ServerConfig } from '../../../shared/model/config.js';
import type { IdentityParts, ServerIdentity } from '../../../shared/model/consent-rules.js';
import { canonicalDigest } from '../canonical-json.js';

/**
 * What a configured server name stands for, as consent rules see it: for a
 * local server the command, its arguments, the names (never the values) of
 * the variables set for it and its working folder; for a remote one its URL.
 * Taken from the configuration as written (`${env:…}` references are not
 * expanded), so it changes exactly when the entry is edited to run something
 * else. Settings that do not change what runs (timeouts, disabled tools,
 * roots, env values, headers) are not part of it.
 */
export function identityParts(config: ServerConfig): IdentityParts {
  return byTransport<IdentityParts>(config, {
    stdio: (stdio) => {
      const cwd = stdio.cwd?.trim();
      return {
        kind: 'stdio',
        command: stdio.command.trim(),
        args: [...(stdio.args ?? [])],
        envNames: [...new Set(Object.keys(stdio.env ?? {}))].sort(),
        ...(cwd !== undefined && cwd !== '' ? { cwd } : {}),
      };
    },
    http: (http) => ({ kind: 'remote', url: canonicalUrl(http.url) }),
  });
}

/** The identity of a server entry: its parts and the SHA-256 of their canonical JSON. */
export function serverIdentity(config: ServerConfig): ServerIdentity {
  const parts = identityParts(config);
  return { hash: identityHash(parts), parts };
}

/** The hash of identity parts (also used to check stored rules for damage). */
export function identityHash(parts: IdentityParts): string {
  return canonicalDigest(parts);
}

/**
 * The URL as the WHATWG parser normalises it (scheme and host in lower case,
 * default port dropped), without a fragment, which never reaches the server.
 */
function canonicalUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    // `${env:…}` in the host part does not parse; the text as written is then the identity.
    return url;
  }
}
