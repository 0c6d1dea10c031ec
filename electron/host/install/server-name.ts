/**
 * A server name for an installed entry that is valid in the configuration
 * (letters, digits, spaces, dots, dashes, underscores; at most 64) and not
 * taken: the entry's own name cleaned up, else with "-2", "-3" … added.
 */
export function freeServerName(wanted: string, taken: readonly string[]): string {
  const cleaned =
    wanted
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .replace(/[^A-Za-z0-9 ._-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .replace(/-{2,}/g, '-')
      .slice(0, 56)
      .replace(/[ ._-]+$/, '') || 'server';
  const used = new Set(taken.map((name) => name.toLowerCase()));
  if (!used.has(cleaned.toLowerCase())) return cleaned;
  for (let n = 2; ; n++) {
    const candidate = `${cleaned}-${String(n)}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
