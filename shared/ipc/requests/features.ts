import { z } from 'zod';
import { ServerNameSchema } from '../../model/config.js';
import {
  CompleteParamsSchema,
  CompletionResultSchema,
  PromptResultSchema,
  ResourceListingSchema,
  ResourceReadResultSchema,
  ResourceTargetSchema,
  ServerPromptsSchema,
} from '../../model/features.js';
import { ServerSkillsSchema } from '../../model/skills.js';
import { none, resourceOf, rootsResult } from './common.js';

// Server features the person uses directly: resources, prompts, completions, roots.
export const featuresRequests = {
  /** A server's resources and templates (every page, from the host's catalog; no request to the server). */
  listResources: { params: z.object({ server: ServerNameSchema }).strict(), result: ResourceListingSchema },
  /** The prompts of every connected server that offers them. */
  listPrompts: { params: none, result: z.array(ServerPromptsSchema) },
  /** Read a resource by URI, or through a template with its variables filled in. */
  readResource: {
    params: z.object({ server: ServerNameSchema, target: ResourceTargetSchema }).strict(),
    result: ResourceReadResultSchema,
  },
  /** Only for servers that declared `resources.subscribe`; updates arrive as `resourceUpdated`. */
  subscribeResource: { params: resourceOf, result: z.null() },
  unsubscribeResource: { params: resourceOf, result: z.null() },
  /** Suggestions for a prompt argument or template variable (servers that declared `completions`). */
  complete: { params: CompleteParamsSchema, result: CompletionResultSchema },
  getPrompt: {
    params: z
      .object({
        server: ServerNameSchema,
        name: z.string().min(1).max(256),
        arguments: z.record(z.string().max(256), z.string().max(65_536)).default({}),
      })
      .strict(),
    result: PromptResultSchema,
  },
  /** A server's skills (SEP-2640) with their verification state; checks a skill's SKILL.md the first time. */
  listSkills: { params: z.object({ server: ServerNameSchema }).strict(), result: ServerSkillsSchema },
  /** The folders (roots) a server may see, from its config entry. */
  listRoots: { params: z.object({ server: ServerNameSchema }).strict(), result: rootsResult },
  /** Add a folder typed by the person: absolute, existing directory; stored as a file:// URI. */
  addRoot: {
    params: z.object({ server: ServerNameSchema, path: z.string().max(4096) }).strict(),
    result: rootsResult,
  },
  /** Let the person pick a folder with the system dialog (Electron); picked is false when cancelled or unavailable. */
  pickRoot: {
    params: z.object({ server: ServerNameSchema }).strict(),
    result: z.object({ picked: z.boolean(), roots: rootsResult }),
  },
  removeRoot: { params: resourceOf, result: rootsResult },
} as const;
