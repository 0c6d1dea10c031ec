import { z } from 'zod';

/**
 * What one conversation may set for itself; everything is optional, and an
 * unset field follows the app's settings. Servers and tools are listed by
 * what is turned OFF, so a server added later is on in every conversation.
 */

/** Extended thinking: the model's own default, adaptive thinking, or none. */
export const ThinkingModeSchema = z.enum(['default', 'adaptive', 'off']);
export type ThinkingMode = z.infer<typeof ThinkingModeSchema>;

/** How much effort Claude puts in (the API's output_config.effort). */
export const EffortSchema = z.enum(['low', 'medium', 'high', 'xhigh', 'max']);
export type Effort = z.infer<typeof EffortSchema>;

const ToolKeySchema = z.object({ server: z.string().max(64), tool: z.string().max(256) }).strict();
export type ToolKey = z.infer<typeof ToolKeySchema>;

export const ConversationSettingsSchema = z
  .object({
    /** The model for this conversation (else the app's model). */
    model: z.string().trim().min(1).max(256).optional(),
    /** Added to the host's system prompt, as the person's own instructions. */
    systemPrompt: z.string().max(20_000).optional(),
    thinking: ThinkingModeSchema.optional(),
    effort: EffortSchema.optional(),
    /** Servers whose tools this conversation does not offer. */
    inactiveServers: z.array(z.string().max(64)).max(500).optional(),
    /** Single tools this conversation does not offer. */
    inactiveTools: z.array(ToolKeySchema).max(10_000).optional(),
    /** false: no server's skills are offered in this conversation. */
    skills: z.boolean().optional(),
  })
  .strict();
export type ConversationSettings = z.infer<typeof ConversationSettingsSchema>;

/** A test of whether a conversation's settings leave a tool active (constant time per tool). */
export function activeToolFilter(
  settings: ConversationSettings | undefined,
): (server: string, tool: string) => boolean {
  const servers = new Set(settings?.inactiveServers ?? []);
  const tools = new Set((settings?.inactiveTools ?? []).map((t) => `${t.server}\u0000${t.tool}`));
  return (server, tool) => !servers.has(server) && !tools.has(`${server}\u0000${tool}`);
}
