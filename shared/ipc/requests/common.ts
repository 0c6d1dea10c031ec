import { z } from 'zod';
import { ConversationIdSchema } from '../../model/chat.js';
import { ServerNameSchema } from '../../model/config.js';
import { ResourceUriSchema, RootInfoSchema } from '../../model/features.js';

/** Shapes several domains' requests share. */
export const none = z.object({}).strict();
export const byName = z.object({ name: ServerNameSchema }).strict();
export const CallIdSchema = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
export const byConversation = z.object({ id: ConversationIdSchema }).strict();
export const inConversation = z.object({ conversationId: ConversationIdSchema }).strict();
export const resourceOf = z.object({ server: ServerNameSchema, uri: ResourceUriSchema }).strict();
export const rootsResult = z.array(RootInfoSchema);
/** Limit of a tool call's arguments (JSON text), in characters. */
export const MAX_ARGUMENTS_CHARS = 8 * 1024 * 1024;
