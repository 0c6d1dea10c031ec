import { z } from 'zod';
import { BundleFieldKeySchema } from '../../../../shared/model/bundle.js';
import { HostError } from '../../errors.js';
import type { McpbNode } from './mcpb.js';

/**
 * A bundle's manifest.json: validated with the official package's schema for
 * its `manifest_version` (@anthropic-ai/mcpb's MANIFEST_SCHEMAS, the same
 * check `mcpb validate` makes), then read into the few fields the host uses.
 */

/** Largest manifest.json read (a real one is a few kilobytes). */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

const CommandSchema = z.object({
  command: z.string(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
});
const OverrideSchema = CommandSchema.partial();

const UserConfigOptionSchema = z.object({
  type: z.enum(['string', 'number', 'boolean', 'directory', 'file']),
  title: z.string(),
  description: z.string(),
  required: z.boolean().optional(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  multiple: z.boolean().optional(),
  sensitive: z.boolean().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});
export type UserConfigOption = z.infer<typeof UserConfigOptionSchema>;

/** What the host reads of a manifest the official schema accepted (every version has these). */
const ReadSchema = z.object({
  name: z.string().min(1),
  display_name: z.string().optional(),
  version: z.string().min(1),
  description: z.string(),
  long_description: z.string().optional(),
  author: z.object({ name: z.string(), email: z.string().optional(), url: z.string().optional() }),
  homepage: z.string().optional(),
  repository: z.object({ url: z.string() }).optional(),
  license: z.string().optional(),
  server: z.object({
    type: z.enum(['node', 'python', 'binary', 'uv']),
    entry_point: z.string(),
    mcp_config: CommandSchema.extend({
      platform_overrides: z.record(z.string(), OverrideSchema).optional(),
    }).optional(),
  }),
  tools: z.array(z.object({ name: z.string(), description: z.string().optional() })).optional(),
  tools_generated: z.boolean().optional(),
  prompts: z.array(z.object({ name: z.string(), description: z.string().optional() })).optional(),
  prompts_generated: z.boolean().optional(),
  privacy_policies: z.array(z.string()).optional(),
  compatibility: z
    .object({
      platforms: z.array(z.string()).optional(),
      runtimes: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  user_config: z.record(z.string(), UserConfigOptionSchema).optional(),
});
export type BundleManifest = z.infer<typeof ReadSchema> & { manifestVersion: string };

/**
 * Parses and validates manifest.json. Every failure is one line naming the
 * first problem (the key path and what is wrong), as `mcpb validate` would.
 */
export function parseManifest(bytes: Buffer, mcpb: Pick<McpbNode, 'MANIFEST_SCHEMAS'>): BundleManifest {
  const refuse = (why: string) =>
    new HostError('invalid_params', `The bundle's manifest is not valid: ${why}`);
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw refuse('manifest.json is not JSON');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw refuse('manifest.json is not an object');
  const declared =
    (raw as Record<string, unknown>).manifest_version ?? (raw as Record<string, unknown>).dxt_version;
  const versions = Object.keys(mcpb.MANIFEST_SCHEMAS);
  const version = typeof declared === 'string' && versions.includes(declared) ? declared : undefined;
  if (version === undefined) {
    throw refuse(
      declared === undefined
        ? 'it has no manifest_version'
        : `manifest_version ${JSON.stringify(declared).slice(0, 40)} is not one this app reads (${versions.join(', ')})`,
    );
  }
  const official = mcpb.MANIFEST_SCHEMAS[version as keyof typeof mcpb.MANIFEST_SCHEMAS].safeParse(raw);
  if (!official.success) {
    const issue = official.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw refuse(`${where}${issue?.message ?? 'invalid'}`);
  }
  const read = ReadSchema.safeParse(official.data);
  if (!read.success) {
    const issue = read.error.issues[0];
    throw refuse(`${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  for (const key of Object.keys(read.data.user_config ?? {})) {
    if (!BundleFieldKeySchema.safeParse(key).success)
      throw refuse(
        `user_config key ${JSON.stringify(key).slice(0, 80)} may only use letters, digits, "_", "-" and "."`,
      );
  }
  return { ...read.data, manifestVersion: version };
}
