/**
 * Which Claude model answers a server's sampling request. The server only
 * advises (MCP `modelPreferences`); the host decides, by this documented
 * mapping (docs/client-features.md, "Sampling: which model"):
 *
 * 1. Hints, in the server's order. A hint is a substring: the Claude model
 *    ids that contain it (case-insensitive) are the candidates, and the
 *    priorities below pick among their tiers. A hint that names no known id
 *    but names a family ("claude-3-sonnet" → sonnet) selects that tier.
 *    Hints for other providers' models map by their size word: "flash",
 *    "mini", "nano", "lite", "small" → haiku; "pro", "medium" → sonnet;
 *    "ultra", "large" → opus. A hint that matches nothing is skipped.
 * 2. No usable hint: the priorities (cost, speed, intelligence, each 0–1;
 *    a missing one counts as 0) are compared with each tier's profile
 *    (cosine similarity); the closest tier wins, so balanced priorities
 *    pick sonnet, cost/speed pick haiku, intelligence picks opus.
 * 3. No hints and no priorities: the default model (sonnet tier).
 */

export type Tier = 'haiku' | 'sonnet' | 'opus';

/** The model used for each tier: the newest of each family the SDK knows. */
export const TIER_MODELS: Readonly<Record<Tier, string>> = {
  haiku: 'claude-haiku-5-5',
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
};

export const DEFAULT_SAMPLING_MODEL = TIER_MODELS.sonnet;

/** Known Claude model ids, newest first within each family (the first match of a family wins). */
export const KNOWN_CLAUDE_MODELS: readonly string[] = [
  'claude-opus-5-5',
  'claude-sonnet-5-5',
  'claude-haiku-5-5',
  'claude-opus-5',
  'claude-sonnet-5',
  'claude-opus-4-8',
  'claude-opus-4-7',
  'claude-opus-4-6',
  'claude-sonnet-4-6',
  'claude-opus-4-5',
  'claude-sonnet-4-5',
  'claude-haiku-4-5',
];

/**
 * Each tier's profile over (cost, speed, intelligence), 0–1: haiku is
 * cheapest and fastest, opus the most capable, sonnet balanced. The server's
 * priorities form a vector too; the tier whose profile points the most the
 * same way (cosine similarity) wins, so balanced priorities pick sonnet.
 */
const TIER_FIT: Readonly<Record<Tier, { cost: number; speed: number; intelligence: number }>> = {
  haiku: { cost: 1, speed: 1, intelligence: 0.3 },
  sonnet: { cost: 0.6, speed: 0.6, intelligence: 0.7 },
  opus: { cost: 0.2, speed: 0.2, intelligence: 1 },
};

const TIERS: readonly Tier[] = ['sonnet', 'haiku', 'opus'];

export interface ModelPreferencesInput {
  readonly hints?: readonly { readonly name?: string | undefined }[] | undefined;
  readonly costPriority?: number | undefined;
  readonly speedPriority?: number | undefined;
  readonly intelligencePriority?: number | undefined;
}

export interface ModelChoice {
  readonly model: string;
  /** One line a person can read in the consent dialog. */
  readonly reason: string;
}

/** The tier of a model id or a hint, from the family or size word in it. */
export function tierOf(name: string): Tier | undefined {
  const n = name.toLowerCase();
  if (n.includes('opus')) return 'opus';
  if (n.includes('sonnet')) return 'sonnet';
  if (n.includes('haiku')) return 'haiku';
  if (/(^|[^a-z])(flash|mini|nano|lite|small)([^a-z]|$)/.test(n)) return 'haiku';
  if (/(^|[^a-z])(ultra|large)([^a-z]|$)/.test(n)) return 'opus';
  if (/(^|[^a-z])(pro|medium)([^a-z]|$)/.test(n)) return 'sonnet';
  return undefined;
}

function hasPriorities(prefs: ModelPreferencesInput | undefined): boolean {
  return (
    prefs?.costPriority !== undefined ||
    prefs?.speedPriority !== undefined ||
    prefs?.intelligencePriority !== undefined
  );
}

/** The tier the priorities favour among `allowed` (ties: the earlier of sonnet, haiku, opus). */
export function tierByPriorities(
  prefs: ModelPreferencesInput | undefined,
  allowed = TIERS,
): Tier | undefined {
  const cost = prefs?.costPriority ?? 0;
  const speed = prefs?.speedPriority ?? 0;
  const intelligence = prefs?.intelligencePriority ?? 0;
  const length = Math.hypot(cost, speed, intelligence);
  if (length === 0) return undefined;
  let best: Tier | undefined;
  let bestScore = -1;
  for (const tier of TIERS) {
    if (!allowed.includes(tier)) continue;
    const fit = TIER_FIT[tier];
    const dot = cost * fit.cost + speed * fit.speed + intelligence * fit.intelligence;
    const score = dot / (length * Math.hypot(fit.cost, fit.speed, fit.intelligence));
    if (score > bestScore) {
      best = tier;
      bestScore = score;
    }
  }
  return best;
}

/** Chooses the Claude model for a sampling request (see the module comment for the rules). */
export function selectSamplingModel(
  prefs: ModelPreferencesInput | undefined,
  options: { defaultModel?: string; known?: readonly string[] } = {},
): ModelChoice {
  const known = options.known ?? KNOWN_CLAUDE_MODELS;
  const defaultModel = options.defaultModel ?? DEFAULT_SAMPLING_MODEL;
  for (const hint of prefs?.hints ?? []) {
    const name = hint.name?.trim().toLowerCase() ?? '';
    if (name === '') continue;
    const candidates = known.filter((id) => id.toLowerCase().includes(name));
    if (candidates.length === 1 && candidates[0] !== undefined) {
      return { model: candidates[0], reason: `the server's hint "${name}" names this model` };
    }
    if (candidates.length > 1) {
      const tiers = TIERS.filter((t) => candidates.some((id) => tierOf(id) === t));
      const tier = (hasPriorities(prefs) ? tierByPriorities(prefs, tiers) : undefined) ?? tiers[0];
      const model = candidates.find((id) => tierOf(id) === tier) ?? candidates[0] ?? defaultModel;
      return {
        model,
        reason: `the server's hint "${name}" matches ${String(candidates.length)} models; ${
          hasPriorities(prefs) ? 'its priorities chose' : 'the default tier is'
        } ${tier ?? 'the first'}`,
      };
    }
    const tier = tierOf(name);
    if (tier !== undefined) {
      return { model: TIER_MODELS[tier], reason: `the server's hint "${name}" maps to the ${tier} tier` };
    }
  }
  if (hasPriorities(prefs)) {
    const tier = tierByPriorities(prefs) ?? 'sonnet';
    return {
      model: TIER_MODELS[tier],
      reason: `the server's cost/speed/intelligence priorities favour ${tier}`,
    };
  }
  return { model: defaultModel, reason: 'the server expressed no preference; default model' };
}
