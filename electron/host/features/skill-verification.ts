import { SKILL_LIMITS } from '@modelcontextprotocol/client/ext/skills';
import type { Client } from '@modelcontextprotocol/client';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { HostError, describeError } from '../errors.js';
import type { ServerConnection } from '../servers/server-connection.js';
import { loadSkill } from './skills.js';

/**
 * Whether a listed skill may be offered to Claude. A skill is verified when
 * its entry is within the limits below and its SKILL.md, read from the
 * server, matches the entry (size, digest, frontmatter: features/skills.ts).
 * Its other files are checked when they are read (load_skill with a file).
 * A skill whose files the server does not list ("dynamic") cannot be
 * checked, so it is never offered.
 *
 * Verdicts are kept per connection (per SDK client) and per SKILL.md
 * digest, so each SKILL.md is read once per connection; a read that fails
 * for another reason than a mismatch (timeout, disconnect) is not kept.
 */

/** A SKILL.md larger than this is not read into a conversation (it would swamp the context). */
export const MAX_INSTRUCTIONS_BYTES = 256 * 1024;
/** Skills checked (and offered) per server; a server listing more is misbehaving. */
export const MAX_SKILLS_PER_SERVER = 100;

export type SkillVerdict = { state: 'verified' } | { state: 'failed'; reason: string };

const verdicts = new WeakMap<Client, Map<string, Promise<SkillVerdict>>>();

/** "1.2 MB", "300 KB", "12 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${String(Math.round(bytes / 1024))} KB`;
  return `${String(bytes)} bytes`;
}

/** Why the entry alone rules the skill out (no file read), or undefined. */
export function entryProblem(skill: Skill): string | undefined {
  if (skill.resources === 'dynamic') {
    return 'the server does not list its files, so they cannot be checked';
  }
  if (skill.resources.length > SKILL_LIMITS.files) {
    return `it has ${String(skill.resources.length)} files, over the extension's limit of ${String(SKILL_LIMITS.files)}`;
  }
  const bytes = skill.resources.reduce((sum, entry) => sum + entry.size, 0);
  if (bytes > SKILL_LIMITS.bytes) {
    return `its files take ${formatBytes(bytes)}, over the extension's limit of ${formatBytes(SKILL_LIMITS.bytes)}`;
  }
  const main = skill.resources.find((entry) => entry.uri === skill.uri);
  if (main && main.size > MAX_INSTRUCTIONS_BYTES) {
    return `its SKILL.md is ${formatBytes(main.size)}, over the host's limit of ${formatBytes(MAX_INSTRUCTIONS_BYTES)} for instructions read into a conversation`;
  }
  return undefined;
}

function keyOf(skill: Skill): string {
  const main = skill.resources === 'dynamic' ? undefined : skill.resources.find((e) => e.uri === skill.uri);
  return `${skill.uri}\u0000${main?.digest ?? ''}`;
}

/** The verdict on one listed skill of a connected server; reads its SKILL.md at most once per connection. */
export function verifySkill(connection: ServerConnection, skill: Skill): Promise<SkillVerdict> {
  const client = connection.connectedClient;
  if (!client) {
    return Promise.resolve({ state: 'failed', reason: `Server "${connection.name}" is not connected` });
  }
  let known = verdicts.get(client);
  if (!known) {
    known = new Map();
    verdicts.set(client, known);
  }
  const key = keyOf(skill);
  const kept = known.get(key);
  if (kept) return kept;
  const problem = entryProblem(skill);
  const verdict: Promise<SkillVerdict> = problem
    ? Promise.resolve({ state: 'failed', reason: problem })
    : loadSkill(connection, skill.uri).then(
        () => ({ state: 'verified' }),
        (error: unknown) => {
          // Only a refusal is a verdict; anything else is tried again next time.
          if (!(error instanceof HostError && error.code === 'denied')) known.delete(key);
          return { state: 'failed', reason: describeError(error) };
        },
      );
  known.set(key, verdict);
  return verdict;
}

/** The verdict if it arrives within `waitMs`, else undefined (the check goes on in the background). */
export async function verdictWithin(
  connection: ServerConnection,
  skill: Skill,
  waitMs: number,
): Promise<SkillVerdict | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      resolve(undefined);
    }, waitMs);
  });
  try {
    return await Promise.race([verifySkill(connection, skill), late]);
  } finally {
    clearTimeout(timer);
  }
}
