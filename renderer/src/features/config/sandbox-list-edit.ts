import { checkSandboxConfig } from '../../../../shared/model/sandbox.js';
import type { SandboxConfig, SandboxListKey } from '../../../../shared/model/sandbox.js';

export type ListEdit = { ok: true; list: string[] } | { ok: false; problem: string };

/**
 * The list `key` with `typed` added, checked with the same schema the host
 * checks the config file with (so the message is the one the host would
 * give, naming the key), or why not.
 */
export function addToList(settings: SandboxConfig | undefined, key: SandboxListKey, typed: string): ListEdit {
  const value = typed.trim();
  const what = key === 'allowHosts' ? 'a host' : 'a path';
  if (value === '') return { ok: false, problem: `${key}: type ${what} first` };
  const list = settings?.[key] ?? [];
  if (list.includes(value))
    return { ok: false, problem: `${key}: ${JSON.stringify(value)} is already listed` };
  const next = [...list, value];
  const check = checkSandboxConfig({ ...settings, [key]: next });
  return check.ok ? { ok: true, list: next } : { ok: false, problem: check.problem };
}

/** The list `key` without `value`. */
export function removeFromList(
  settings: SandboxConfig | undefined,
  key: SandboxListKey,
  value: string,
): string[] {
  return (settings?.[key] ?? []).filter((entry) => entry !== value);
}
