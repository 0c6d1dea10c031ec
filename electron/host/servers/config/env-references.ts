import { HostError } from '../../errors.js';

/**
 * `${env:NAME}` references in a server's configuration (command, args, env
 * values, cwd, URL and headers), the syntax VS Code and Cursor use. Values
 * come from the environment the host resolved (the user's login shell laid
 * over the process's own), so a secret can live in the user's shell profile
 * instead of the configuration file.
 */
const REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The names a text refers to, in order of first appearance. */
export function envReferences(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(REFERENCE)) names.add(match[1] ?? '');
  return [...names];
}

/**
 * Replaces every `${env:NAME}` in `text`. A reference to a variable that is
 * not set is an error naming the variable and where it was used, rather than
 * an empty string that would fail later in a way nobody can trace.
 */
export function expandEnvReferences(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
): string {
  return text.replace(REFERENCE, (_whole, name: string) => {
    const value = env[name];
    if (value === undefined) {
      throw new HostError('config_invalid', `${where} uses \${env:${name}}, but ${name} is not set`);
    }
    return value;
  });
}

/** Expands every value of a string table (env or headers); keys are kept as written. */
export function expandEnvReferencesIn(
  table: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(table)) {
    out[key] = expandEnvReferences(value, env, `${where} ${key}`);
  }
  return out;
}
