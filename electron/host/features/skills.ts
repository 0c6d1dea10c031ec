import { SkillVerificationError, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { Client } from '@modelcontextprotocol/client';
import type { Skill, SkillFile } from '@modelcontextprotocol/client/ext/skills';
import { HostError } from '../errors.js';
import type { ServerConnection } from '../servers/server-connection.js';

/**
 * Skills (the MCP Skills extension, SEP-2640), host side. A server lists
 * skills (entries: the SKILL.md URI, its frontmatter, every file with its
 * size and SHA-256 digest); the catalog keeps the entries and reads no file.
 * A skill's files are read only when it is loaded, and every file is checked
 * against the entry (the SDK's SkillsClient: listed, size, digest, and for
 * SKILL.md the frontmatter). A skill whose SKILL.md fails a check is not
 * loaded, and none of its other files is ever requested.
 */

/** A loaded skill: its verified SKILL.md and what else it lists (read on demand with readSkillFile). */
export interface LoadedSkill {
  uri: string;
  name: string;
  description: string;
  /** The markdown after the frontmatter. */
  body: string;
  /** URIs of the skill's other files, or "dynamic" when the server does not list them. */
  files: string[] | 'dynamic';
}

/** Skills whose SKILL.md was loaded and verified, per client (so per connection). */
const loadedSkills = new WeakMap<Client, Set<string>>();

function entryOf(connection: ServerConnection, uri: string): Skill {
  const skill = connection.catalog?.skills.find((entry) => entry.uri === uri);
  if (!skill) throw new HostError('not_found', `Server "${connection.name}" lists no skill ${uri}`);
  return skill;
}

function verificationFailure(
  connection: ServerConnection,
  skill: Skill,
  error: SkillVerificationError,
): HostError {
  const why =
    error.reason === 'frontmatter'
      ? `its frontmatter differs from the server's listing (${error.differences.join('; ')})`
      : error.reason === 'unlisted'
        ? 'the file is not in the skill'
        : `its ${error.reason} does not match the server's listing`;
  return new HostError(
    'denied',
    `Skill "${skill.frontmatter.name}" of server "${connection.name}": ${error.uri} was refused: ${why}`,
  );
}

async function readVerified(
  connection: ServerConnection,
  skill: Skill,
  ref: string | undefined,
): Promise<SkillFile> {
  return connection.request(`read ${ref ?? skill.uri}`, async (client) => {
    try {
      return await new SkillsClient(client).read(skill, ref, { cacheMode: 'bypass' });
    } catch (error) {
      // A HostError passes through request() as it is.
      if (error instanceof SkillVerificationError) throw verificationFailure(connection, skill, error);
      throw error;
    }
  });
}

/** Loads a listed skill: reads its SKILL.md and checks it against the entry; refuses it on any mismatch. */
export async function loadSkill(connection: ServerConnection, uri: string): Promise<LoadedSkill> {
  const skill = entryOf(connection, uri);
  const client = connection.connectedClient;
  if (!client) throw new HostError('not_connected', `Server "${connection.name}" is not connected`);
  const file = await readVerified(connection, skill, undefined);
  let loaded = loadedSkills.get(client);
  if (!loaded) {
    loaded = new Set();
    loadedSkills.set(client, loaded);
  }
  loaded.add(skill.uri);
  return {
    uri: skill.uri,
    name: skill.frontmatter.name,
    description: skill.frontmatter.description,
    body: file.body ?? file.text ?? '',
    files:
      skill.resources === 'dynamic'
        ? 'dynamic'
        : skill.resources.map((entry) => entry.uri).filter((fileUri) => fileUri !== skill.uri),
  };
}

/**
 * Reads one file of a loaded skill (`ref`: a path relative to the skill or a
 * listed URI), checked against the entry. A skill that was not loaded, or
 * whose SKILL.md was refused, gets no request at all.
 */
export async function readSkillFile(
  connection: ServerConnection,
  skillUri: string,
  ref: string,
): Promise<SkillFile> {
  const skill = entryOf(connection, skillUri);
  const client = connection.connectedClient;
  if (!client || loadedSkills.get(client)?.has(skill.uri) !== true) {
    throw new HostError(
      'denied',
      `Skill "${skill.frontmatter.name}" of server "${connection.name}" is not loaded; its files are read only after its SKILL.md was loaded and verified`,
    );
  }
  return readVerified(connection, skill, ref);
}
