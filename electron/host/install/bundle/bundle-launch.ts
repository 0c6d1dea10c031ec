import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import type { BundleValue } from '../../../../shared/model/bundle.js';
import { HostError } from '../../errors.js';
import { refusedBundleEnvReason, refusedEnvMessage } from '../outsider-env.js';
import type { BundleManifest } from './bundle-manifest.js';

/**
 * How a bundle's server is started: the manifest's `mcp_config` for this
 * platform with its variables substituted, as the MCPB manifest spec defines
 * them: `${__dirname}` (where the bundle is installed), `${HOME}`,
 * `${DESKTOP}`, `${DOCUMENTS}`, `${DOWNLOADS}`, `${pathSeparator}` / `${/}`,
 * and `${user_config.KEY}` (an argument that is exactly a several-valued
 * setting becomes one argument per value).
 *
 * Sensitive settings are not substituted: `${user_config.KEY}` stays in the
 * stored entry (so the configuration file never holds the secret) and is
 * filled in from encrypted storage when the server is spawned.
 *
 * Done here rather than with the package's `replaceVariables`, which passes
 * the value to String.prototype.replace as a pattern (a value holding `$&`
 * or `$$` comes out changed) and logs to the console.
 */

export interface LaunchTemplate {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The manifest's command line for `platform`: mcp_config with its platform override, or the default for its type. */
export function manifestCommand(
  manifest: BundleManifest,
  platform: string = process.platform,
): LaunchTemplate {
  const config = manifest.server.mcp_config;
  if (config) {
    const override = config.platform_overrides?.[platform];
    return {
      command: override?.command ?? config.command,
      args: [...(override?.args ?? config.args ?? [])],
      env: { ...(override?.env ?? config.env ?? {}) },
    };
  }
  const entry = `\${__dirname}/${manifest.server.entry_point}`;
  switch (manifest.server.type) {
    case 'node':
      return { command: 'node', args: [entry], env: {} };
    case 'python':
      return { command: platform === 'win32' ? 'python' : 'python3', args: [entry], env: {} };
    case 'uv':
      return { command: 'uv', args: ['run', '--directory', '${__dirname}', entry], env: {} };
    case 'binary':
      return { command: entry, args: [], env: {} };
  }
}

/** The spec's folder variables for this user. */
export function systemVariables(home: string = homedir()): Record<string, string> {
  return {
    HOME: home,
    DESKTOP: join(home, 'Desktop'),
    DOCUMENTS: join(home, 'Documents'),
    DOWNLOADS: join(home, 'Downloads'),
    pathSeparator: sep,
    '/': sep,
  };
}

export interface Substitution {
  /** `${__dirname}`: the folder the bundle is installed in. */
  dir: string;
  system: Record<string, string>;
  /** Values of the non-sensitive settings (unset optional ones are absent). */
  values: Readonly<Record<string, BundleValue>>;
  /** Keys of the sensitive settings: left as `${user_config.KEY}` for the spawn. */
  sensitive: ReadonlySet<string>;
}

const VARIABLE = /\$\{([^}]+)\}/g;
const EXACT_SETTING = /^\$\{user_config\.([^}]+)\}$/;

/**
 * A bundle may not read the host's environment: `${env:NAME}` would be
 * expanded at spawn from the person's shell (tokens, keys) and handed to the
 * bundle's server without anyone seeing a value. Refused in the manifest's
 * command line and in every setting.
 */
export function refuseEnvReferences(text: string, where: string): void {
  if (/\$\{env:/i.test(text)) {
    throw new HostError(
      'invalid_params',
      `${where} names a variable of your environment (\${env:…}); bundles cannot read your environment`,
    );
  }
}

/**
 * Checks the manifest's command line (before any setting is known): no
 * `${env:…}`, and no variable that changes what a launcher fetches or a
 * runtime loads (outsider-env.ts).
 */
export function checkTemplate(template: LaunchTemplate): void {
  checkSubstituted(template);
  for (const [key, value] of Object.entries(template.env)) {
    const why = refusedBundleEnvReason(key, value);
    if (why !== undefined) {
      throw new HostError(
        'invalid_params',
        `This bundle cannot be installed: ${refusedEnvMessage(key, why)}`,
      );
    }
  }
}

/**
 * The same `${env:…}` check on the command line after the settings are
 * substituted: a setting whose default is `$` followed by `{env:X}` would
 * otherwise assemble a reference no single text shows. (The launcher does
 * not expand `${env:…}` in a bundle's entry either; this says so up front.)
 */
export function checkSubstituted(template: LaunchTemplate): void {
  refuseEnvReferences(template.command, "The bundle's command");
  template.args.forEach((arg) => {
    refuseEnvReferences(arg, "The bundle's arguments");
  });
  for (const [key, value] of Object.entries(template.env)) {
    refuseEnvReferences(`${key}=${value}`, "The bundle's environment");
  }
}

/** The command line with every variable substituted except the sensitive settings. */
export function substitute(template: LaunchTemplate, context: Substitution): LaunchTemplate {
  const text = (value: string) => substituteText(value, context);
  const args = template.args.flatMap((arg) => {
    const key = EXACT_SETTING.exec(arg)?.[1];
    if (key === undefined || context.sensitive.has(key)) return [text(arg)];
    const value = context.values[key];
    if (value === undefined) return [];
    return Array.isArray(value) ? value : [String(value)];
  });
  return {
    command: text(template.command),
    args,
    env: Object.fromEntries(Object.entries(template.env).map(([key, value]) => [key, text(value)])),
  };
}

function substituteText(text: string, context: Substitution): string {
  return text.replace(VARIABLE, (whole, name: string) => {
    if (name === '__dirname') return context.dir;
    const system = context.system[name];
    if (system !== undefined) return system;
    if (!name.startsWith('user_config.')) return whole;
    const key = name.slice('user_config.'.length);
    if (context.sensitive.has(key)) return whole;
    const value = context.values[key];
    if (value === undefined) return '';
    if (Array.isArray(value)) {
      throw new HostError(
        'invalid_params',
        `The setting "${key}" has several values, but the bundle uses it inside a longer text`,
      );
    }
    return String(value);
  });
}
