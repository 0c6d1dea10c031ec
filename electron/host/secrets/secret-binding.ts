import { z } from 'zod';
import type { ServerConfig } from '../../../shared/model/config.js';
import { ServerIdentitySchema } from '../../../shared/model/consent-rules.js';
import type { IdentityParts } from '../../../shared/model/consent-rules.js';
import { identityHash, serverIdentity } from '../consent/server-identity.js';

/**
 * Whom a server's stored secrets belong to. The rule (also in
 * docs/install-servers.md, "Browse the MCP registry and install links"):
 *
 * 1. A table of secrets belongs to one entry: the configuration file it was
 *    entered for, the server's name and the server's identity — the same
 *    identity consent rules are bound to (consent/server-identity.ts: the
 *    command, arguments, env names and folder of a local server; the URL of a
 *    remote one). `${secret:NAME}` is filled in only for that entry; any other
 *    (the same name running another program or pointing at another URL) reads
 *    as "no secret NAME is stored for it".
 * 2. Secrets are forgotten (the record and its keychain entry deleted) as soon
 *    as their entry is no longer in the configuration as it was, whatever made
 *    the change: Remove, a bundle's uninstall, the raw editor, an import, or
 *    another program (seen at the next load or reload). A rename in the raw
 *    editor or by another program is a removal plus a new entry: the new name
 *    gets nothing.
 * 3. An edit the person makes in the app's edit form (or a bundle update)
 *    carries the table along: a rename moves it, and a changed identity rebinds
 *    it as long as the values keep going to the same place — the same command
 *    for a local server (new arguments, env names or folder), the same origin
 *    (scheme, host and port) for a remote one (another path or query). A form
 *    edit to another command, another site or another transport forgets them.
 * 4. An install (registry entry, install link) binds the values the person
 *    entered to the entry it saves.
 * 5. Tables stored by earlier versions (keyed by name only) are bound, at the
 *    first load after the upgrade, to the entry of that name in the
 *    configuration then; those whose name is not there are forgotten.
 */
export const SecretBindingSchema = z.object({
  /** The absolute path of the configuration file the entry is in. */
  configPath: z.string(),
  server: z.string(),
  identity: ServerIdentitySchema,
});
export type SecretBinding = z.infer<typeof SecretBindingSchema>;

export function bindingOf(configPath: string, server: string, config: ServerConfig): SecretBinding {
  return { configPath, server, identity: serverIdentity(config) };
}

/** Whether a stored binding is intact (its hash is that of its parts). */
export function bindingIntact(binding: SecretBinding): boolean {
  return identityHash(binding.identity.parts) === binding.identity.hash;
}

/** Rule 3: whether a form edit from `from` to `to` still sends the values to the same program or site. */
export function sameDestination(from: IdentityParts, to: IdentityParts): boolean {
  if (from.kind === 'stdio' && to.kind === 'stdio') return from.command === to.command;
  if (from.kind === 'remote' && to.kind === 'remote') return originOf(from.url) === originOf(to.url);
  return false;
}

/** Scheme, host and port; a URL that does not parse (an `${env:…}` host) stands for itself as written. */
function originOf(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? url : origin;
  } catch {
    return url;
  }
}
