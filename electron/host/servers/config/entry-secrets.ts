import { byTransport } from '../../../../shared/model/config.js';
import type { ServerConfig } from '../../../../shared/model/config.js';
import { expandSecrets } from '../../secrets/server-secrets.js';

/** The stored secrets of an entry, looked up by its name and configuration as written. */
export type EntrySecrets = (
  server: string,
  config: ServerConfig,
) => Promise<Readonly<Record<string, string>>>;

/**
 * The entry with its `${secret:NAME}` references (env values, arguments,
 * headers) replaced by the stored values; only what is spawned or sent
 * sees them, never the snapshot, the log or the remembered era.
 */
export async function withSecrets<T extends ServerConfig>(
  server: string,
  config: T,
  secrets: EntrySecrets | undefined,
): Promise<T> {
  if (!secrets || !JSON.stringify(config).includes('${secret:')) return config;
  const values = await secrets(server, config);
  const expand = (text: string, where: string) => expandSecrets(text, values, server, where);
  const table = (entries: Record<string, string> | undefined, where: string) =>
    entries && Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, expand(v, `${where} ${k}`)]));
  const expanded: ServerConfig = byTransport<ServerConfig>(config, {
    stdio: (stdio) => ({
      ...stdio,
      args: stdio.args?.map((arg, i) => expand(arg, `argument ${String(i + 1)}`)),
      env: table(stdio.env, 'env'),
    }),
    http: (http) => ({ ...http, headers: table(http.headers, 'header') }),
  });
  // Same kind as it came in: byTransport chose the case by the entry's own shape.
  return expanded as T;
}
