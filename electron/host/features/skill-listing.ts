import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { ConversationSettings } from '../../../shared/model/conversation-settings.js';
import {
  MAX_SKILL_DESCRIPTION_CHARS,
  MAX_SKILL_FILES_SHOWN,
  MAX_SKILL_NAME_CHARS,
} from '../../../shared/model/skills.js';
import type { ServerSkills, SkillInfo } from '../../../shared/model/skills.js';
import { oneLine } from '../errors.js';
import type { ServerConnection } from '../servers/server-connection.js';
import { MAX_SKILLS_PER_SERVER, verdictWithin } from './skill-verification.js';
import type { SkillVerdict } from './skill-verification.js';

/**
 * A server's skills with their verification state, for the UI and for the
 * chat. Server-supplied text is made one line and bounded here, before it
 * reaches the renderer or a model request.
 */

/** How long a UI listing waits for checks still running (they go on; a later listing shows them). */
export const LISTING_WAIT_MS = 3000;

/** A verified skill a conversation may offer to Claude. */
export interface OfferedSkill {
  server: string;
  name: string;
  description: string;
  uri: string;
}

/** The listed skills a host checks, in the server's order, with the verdict on each (undefined: still checking). */
async function judged(
  connection: ServerConnection,
  waitMs: number,
): Promise<{ skill: Skill; verdict: SkillVerdict | undefined }[]> {
  const skills = connection.catalog?.skills ?? [];
  return Promise.all(
    skills.map(async (skill, index) => ({
      skill,
      verdict:
        index < MAX_SKILLS_PER_SERVER
          ? await verdictWithin(connection, skill, waitMs)
          : {
              state: 'failed' as const,
              reason: `the server lists more than ${String(MAX_SKILLS_PER_SERVER)} skills, the host's limit`,
            },
    })),
  );
}

const nameOf = (skill: Skill) => oneLine(skill.frontmatter.name, MAX_SKILL_NAME_CHARS);
const descriptionOf = (skill: Skill) => oneLine(skill.frontmatter.description, MAX_SKILL_DESCRIPTION_CHARS);

/** A file's path relative to the skill's folder, or its URI when it lies outside. */
function relativePath(skill: Skill, uri: string): string {
  const root = skill.uri.slice(0, skill.uri.lastIndexOf('/') + 1);
  return oneLine(uri.startsWith(root) ? uri.slice(root.length) : uri, 1024);
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

function infoOf(skill: Skill, verdict: SkillVerdict | undefined): SkillInfo {
  const others = skill.resources === 'dynamic' ? [] : skill.resources.filter((e) => e.uri !== skill.uri);
  return {
    uri: oneLine(skill.uri, 2048),
    name: nameOf(skill),
    description: descriptionOf(skill),
    files:
      skill.resources === 'dynamic'
        ? 'dynamic'
        : others
            .slice(0, MAX_SKILL_FILES_SHOWN)
            .map((entry) => ({ path: relativePath(skill, entry.uri), size: entry.size })),
    moreFiles: Math.max(0, others.length - MAX_SKILL_FILES_SHOWN),
    bytes: skill.resources === 'dynamic' ? 0 : skill.resources.reduce((sum, e) => sum + e.size, 0),
    state: verdict?.state ?? 'pending',
    ...(verdict?.state === 'failed' ? { reason: sentence(oneLine(verdict.reason, 500)) } : {}),
  };
}

/** One server's skills with their state, for its view (checks run now, if they have not yet). */
export async function serverSkills(
  connection: ServerConnection,
  waitMs = LISTING_WAIT_MS,
): Promise<ServerSkills> {
  const list = await judged(connection, waitMs);
  return {
    server: connection.name,
    enabled: connection.skillsEnabled,
    skills: list.slice(0, 500).map(({ skill, verdict }) => infoOf(skill, verdict)),
  };
}

/** Whether this conversation offers skills of this server at all. */
export function skillsOnFor(
  connection: ServerConnection,
  conversation: ConversationSettings | undefined,
): boolean {
  return (
    connection.currentStatus === 'connected' &&
    connection.skillsEnabled &&
    conversation?.skills !== false &&
    !(conversation?.inactiveServers ?? []).includes(connection.name)
  );
}

/**
 * The verified skills a conversation offers: of connected servers whose
 * entry and the conversation leave skills on. A check that has not finished
 * within `waitMs` leaves its skill out of this request (it is offered once
 * verified); a failed one is never offered.
 */
export async function offeredSkills(
  connections: readonly ServerConnection[],
  conversation: ConversationSettings | undefined,
  waitMs: number,
): Promise<OfferedSkill[]> {
  const perServer = await Promise.all(
    connections
      .filter((connection) => skillsOnFor(connection, conversation))
      .map(async (connection) => {
        const list = await judged(connection, waitMs);
        const seen = new Set<string>();
        return list.flatMap(({ skill, verdict }) => {
          const name = nameOf(skill);
          // Two skills of one name could not be told apart by Claude: the first is offered.
          if (verdict?.state !== 'verified' || seen.has(name)) return [];
          seen.add(name);
          return [{ server: connection.name, name, description: descriptionOf(skill), uri: skill.uri }];
        });
      }),
  );
  return perServer.flat();
}
