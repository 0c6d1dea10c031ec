import type { PromptResult } from '../../../shared/model/features.js';
import type { ServerConnection } from '../servers/server-connection.js';
import { toBlock } from '../servers/tool-result.js';

/**
 * Gets a prompt (prompts/get) with the person's argument values and shapes
 * its messages for the UI and the chat composer: text, images and embedded
 * resources as content blocks (binary resources stay in the host).
 */
export async function getPrompt(
  connection: ServerConnection,
  name: string,
  args: Record<string, string>,
  signal?: AbortSignal,
): Promise<PromptResult> {
  connection.requireCapability('prompts');
  const result = await connection.request(`prompts/get ${name}`, (client) =>
    client.getPrompt({ name, arguments: args }, signal ? { signal } : undefined),
  );
  return {
    server: connection.name,
    name,
    ...(typeof result.description === 'string' ? { description: result.description } : {}),
    messages: result.messages.map((message) => ({ role: message.role, content: toBlock(message.content) })),
  };
}
