import { z } from 'zod';

/**
 * A server's skills (the MCP Skills extension, SEP-2640) as the UI sees
 * them. Every string came from a server: the host makes it one line and
 * bounds it before it leaves, and these schemas bound it again (the UI
 * renders it as text, never as HTML).
 */

/** Longest skill name shown (the extension's names are at most 64 characters). */
export const MAX_SKILL_NAME_CHARS = 64;
/** Longest skill description shown (the extension's descriptions are at most 1,024 characters). */
export const MAX_SKILL_DESCRIPTION_CHARS = 1024;
/** Files listed per skill in the UI; a longer list says how many more there are. */
export const MAX_SKILL_FILES_SHOWN = 200;

export const SkillFileInfoSchema = z.object({
  /** The file's path relative to the skill, or its URI when it lies elsewhere. */
  path: z.string().max(1024),
  size: z.number().int().nonnegative(),
});
export type SkillFileInfo = z.infer<typeof SkillFileInfoSchema>;

/**
 * verified: its SKILL.md was read and matched the server's listing (size,
 * digest, frontmatter); failed: it did not, or it is over a limit (reason
 * says which); pending: not checked yet (the server is slow to answer).
 */
export const SkillStateSchema = z.enum(['verified', 'failed', 'pending']);
export type SkillState = z.infer<typeof SkillStateSchema>;

export const SkillInfoSchema = z.object({
  uri: z.string().max(2048),
  name: z.string().max(MAX_SKILL_NAME_CHARS),
  description: z.string().max(MAX_SKILL_DESCRIPTION_CHARS),
  /** Every file but SKILL.md, or "dynamic" when the server does not list them. */
  files: z.union([z.array(SkillFileInfoSchema).max(MAX_SKILL_FILES_SHOWN), z.literal('dynamic')]),
  /** Files past MAX_SKILL_FILES_SHOWN. */
  moreFiles: z.number().int().nonnegative(),
  /** Size of every listed file together, in bytes. */
  bytes: z.number().int().nonnegative(),
  state: SkillStateSchema,
  /** Why it failed, in one line. */
  reason: z.string().max(500).optional(),
});
export type SkillInfo = z.infer<typeof SkillInfoSchema>;

/** One server's skills and whether it offers them to Claude (`skills: false` in its entry turns them off). */
export const ServerSkillsSchema = z.object({
  server: z.string(),
  enabled: z.boolean(),
  skills: z.array(SkillInfoSchema).max(500),
});
export type ServerSkills = z.infer<typeof ServerSkillsSchema>;
