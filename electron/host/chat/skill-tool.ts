import { z } from 'zod';
import type { ConversationSettings } from '../../../shared/model/conversation-settings.js';
import type { ContentBlock } from '../../../shared/model/server.js';
import { describeError, oneLine } from '../errors.js';
import { offeredSkills } from '../features/skill-listing.js';
import type { OfferedSkill } from '../features/skill-listing.js';
import { MAX_INSTRUCTIONS_BYTES, formatBytes, verifySkill } from '../features/skill-verification.js';
import { loadSkill, readSkillFile } from '../features/skills.js';
import type { ServerConnection } from '../servers/server-connection.js';
import type { ServerManager } from '../servers/server-manager.js';

/**
 * The host's `load_skill` tool, run when Claude calls it. Loading a skill is
 * a read: the verified SKILL.md (or one of its files, checked against its
 * digest) goes into the conversation as the tool's result, labelled as the
 * server's words; nothing runs and nothing changes on the server. Like a
 * resource the person attaches, it is not asked about one by one: the
 * person chose to offer the skill (skills on for the server and for the
 * conversation), and the load shows in the conversation as a tool card.
 * Only a skill this conversation offers now can be loaded.
 */

/** A skill file read into the conversation is at most this large (checked against the listing before reading). */
export const MAX_SKILL_FILE_BYTES = 128 * 1024;
/** How long a load waits for checks still running. */
const CHECK_WAIT_MS = 5000;

const InputSchema = z
  .object({
    server: z.string().min(1).max(64),
    skill: z.string().min(1).max(256),
    file: z.string().min(1).max(1024).optional(),
  })
  .strict();

export interface SkillToolResult {
  isError: boolean;
  content: ContentBlock[];
}

const fail = (text: string): SkillToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** Runs one load_skill call from the model; never throws. */
export async function runLoadSkill(
  inputJson: string,
  servers: ServerManager,
  conversation: ConversationSettings | undefined,
): Promise<SkillToolResult> {
  let parsed;
  try {
    parsed = InputSchema.safeParse(JSON.parse(inputJson));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) {
    return fail(
      'load_skill takes {"server": string, "skill": string, "file"?: string}; the input did not match.',
    );
  }
  const { server, skill: name, file } = parsed.data;
  const connections = servers.list().map((s) => servers.get(s.name));
  const offered = await offeredSkills(connections, conversation, CHECK_WAIT_MS);
  const skill = offered.find((s) => s.server === server && (s.name === name || s.uri === name));
  if (!skill) {
    const names = offered.filter((s) => s.server === server).map((s) => s.name);
    return fail(
      oneLine(
        `No skill "${name}" of server "${server}" is available in this conversation.${names.length > 0 ? ` Its available skills: ${names.join(', ')}.` : ''}`,
        2000,
      ),
    );
  }
  const connection = servers.get(server);
  try {
    return file === undefined
      ? await instructions(connection, skill)
      : await oneFile(connection, skill, file);
  } catch (error) {
    return fail(`Could not load the skill: ${describeError(error)}`);
  }
}

async function instructions(connection: ServerConnection, offered: OfferedSkill): Promise<SkillToolResult> {
  const loaded = await loadSkill(connection, offered.uri);
  const entry = connection.catalog?.skills.find((s) => s.uri === offered.uri);
  const sizes = new Map(
    entry && entry.resources !== 'dynamic' ? entry.resources.map((e) => [e.uri, e.size] as const) : [],
  );
  const root = offered.uri.slice(0, offered.uri.lastIndexOf('/') + 1);
  const files =
    loaded.files === 'dynamic'
      ? []
      : loaded.files.map((uri) => {
          const path = uri.startsWith(root) ? uri.slice(root.length) : uri;
          const size = sizes.get(uri);
          return `- ${oneLine(path, 1024)}${size !== undefined ? ` (${formatBytes(size)})` : ''}`;
        });
  const body =
    loaded.body.length > MAX_INSTRUCTIONS_BYTES ? loaded.body.slice(0, MAX_INSTRUCTIONS_BYTES) : loaded.body;
  const text = [
    `Skill "${offered.name}" of server "${offered.server}" (its SKILL.md, written by the server, checked against its listing):`,
    '',
    body.trim(),
    '',
    files.length > 0
      ? `Files of this skill (load one with load_skill and file):\n${files.join('\n')}`
      : 'This skill has no other files.',
  ].join('\n');
  return { isError: false, content: [{ type: 'text', text }] };
}

async function oneFile(
  connection: ServerConnection,
  offered: OfferedSkill,
  ref: string,
): Promise<SkillToolResult> {
  const entry = connection.catalog?.skills.find((s) => s.uri === offered.uri);
  const root = offered.uri.slice(0, offered.uri.lastIndexOf('/') + 1);
  const listed =
    entry && entry.resources !== 'dynamic'
      ? entry.resources.find((e) => e.uri === ref || e.uri === `${root}${ref.replace(/^\.?\//, '')}`)
      : undefined;
  if (!entry || !listed) return fail(oneLine(`The skill "${offered.name}" lists no file "${ref}".`, 1200));
  if (listed.size > MAX_SKILL_FILE_BYTES) {
    return fail(
      `The file "${oneLine(ref, 200)}" is ${formatBytes(listed.size)}, over the host's limit of ${formatBytes(MAX_SKILL_FILE_BYTES)} for a skill file read into a conversation.`,
    );
  }
  // Its files are read only once its SKILL.md was verified on this connection.
  await verifySkill(connection, entry);
  const read = await readSkillFile(connection, offered.uri, listed.uri);
  if (read.text === undefined) {
    return fail(
      `The file "${oneLine(ref, 200)}" is not text (${oneLine(read.mimeType ?? 'unknown type', 100)}, ${formatBytes(read.bytes.length)}); only text files can be read into a conversation.`,
    );
  }
  return {
    isError: false,
    content: [
      {
        type: 'text',
        text: `File "${oneLine(ref, 200)}" of skill "${offered.name}" (server "${offered.server}", checked against its digest):\n\n${read.text}`,
      },
    ],
  };
}
