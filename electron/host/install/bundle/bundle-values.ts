import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { BundleValue } from '../../../../shared/model/bundle.js';
import { HostError } from '../../errors.js';
import type { UserConfigOption } from './bundle-manifest.js';
import { refuseEnvReferences } from './bundle-launch.js';

/**
 * The person's answers to a bundle's `user_config`, checked against what the
 * manifest declares (type, required, min/max, directories that exist) and
 * split into plain values (kept in the install record, shown again on
 * update) and secrets (stored encrypted, never shown again).
 */

export interface SettledValues {
  /** Non-sensitive settings with a value (the answer, the kept value, or the default). */
  values: Record<string, BundleValue>;
  /** Sensitive settings typed now (to be encrypted). */
  secrets: Record<string, string>;
  /** Sensitive settings whose stored secret is kept (left empty on update). */
  keptSecrets: string[];
}

export interface Previous {
  values: Readonly<Record<string, BundleValue>>;
  /** Sensitive keys the host holds a secret for. */
  secretKeys: ReadonlySet<string>;
}

/**
 * Settles every declared setting. `answers` come from the form; a setting
 * without one keeps its value from the installed version, else takes the
 * manifest's default (`${HOME}` and the other folder variables expanded).
 */
export async function settleValues(
  options: Readonly<Record<string, UserConfigOption>>,
  answers: Readonly<Record<string, BundleValue>>,
  previous: Previous | undefined,
  expand: (text: string) => string,
): Promise<SettledValues> {
  for (const key of Object.keys(answers)) {
    if (!(key in options)) throw new HostError('invalid_params', `The bundle has no setting "${key}"`);
  }
  const settled: SettledValues = { values: {}, secrets: {}, keptSecrets: [] };
  for (const [key, option] of Object.entries(options)) {
    const label = `"${option.title || key}"`;
    const answer = blankToUndefined(answers[key]);
    if (option.sensitive === true) {
      if (answer !== undefined) {
        const secret = typeof answer === 'string' ? answer : undefined;
        if (secret === undefined) throw new HostError('invalid_params', `${label} must be text`);
        settled.secrets[key] = secret;
      } else if (previous?.secretKeys.has(key) === true) {
        settled.keptSecrets.push(key);
      } else if (typeof option.default === 'string' && option.default !== '') {
        settled.secrets[key] = option.default;
      } else if (option.required === true) {
        throw new HostError('invalid_params', `${label} is required`);
      }
      continue;
    }
    const fallback = previous?.values[key] ?? expandDefault(option.default, expand);
    const value = answer ?? blankToUndefined(fallback);
    if (value === undefined) {
      if (option.required === true) throw new HostError('invalid_params', `${label} is required`);
      continue;
    }
    settled.values[key] = await checkValue(option, value, label);
  }
  return settled;
}

function blankToUndefined(value: BundleValue | undefined): BundleValue | undefined {
  if (value === '' || (Array.isArray(value) && value.every((item) => item.trim() === ''))) return undefined;
  return value;
}

function expandDefault(
  value: BundleValue | undefined,
  expand: (text: string) => string,
): BundleValue | undefined {
  if (typeof value === 'string') return expand(value);
  if (Array.isArray(value)) return value.map(expand);
  return value;
}

async function checkValue(option: UserConfigOption, value: BundleValue, label: string): Promise<BundleValue> {
  switch (option.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw new HostError('invalid_params', `${label} must be on or off`);
      return value;
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number))
        throw new HostError('invalid_params', `${label} must be a number`);
      if (option.min !== undefined && number < option.min)
        throw new HostError('invalid_params', `${label} must be at least ${String(option.min)}`);
      if (option.max !== undefined && number > option.max)
        throw new HostError('invalid_params', `${label} must be at most ${String(option.max)}`);
      return number;
    }
    case 'string':
      if (typeof value !== 'string') throw new HostError('invalid_params', `${label} must be text`);
      refuseEnvReferences(value, label);
      return value;
    case 'directory':
    case 'file': {
      const paths = (Array.isArray(value) ? value : [value]).map((item) => {
        if (typeof item !== 'string') throw new HostError('invalid_params', `${label} must be a path`);
        return item.trim();
      });
      const list = paths.filter((path) => path !== '');
      if (list.length > 1 && option.multiple !== true)
        throw new HostError('invalid_params', `${label} takes one ${option.type}`);
      for (const path of list) await checkPath(path, option.type, label);
      return option.multiple === true ? list : (list[0] ?? '');
    }
  }
}

async function checkPath(path: string, kind: 'directory' | 'file', label: string): Promise<void> {
  refuseEnvReferences(path, label);
  if (!isAbsolute(path)) throw new HostError('invalid_params', `${label}: "${path}" is not an absolute path`);
  const found = await stat(path).then(
    (s) => (kind === 'directory' ? s.isDirectory() : s.isFile()),
    () => false,
  );
  if (!found) throw new HostError('invalid_params', `${label}: there is no ${kind} at "${path}"`);
}
