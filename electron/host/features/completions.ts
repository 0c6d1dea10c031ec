import type { CompletionRef, CompletionResult } from '../../../shared/model/features.js';
import { CompletionResultSchema } from '../../../shared/model/features.js';
import type { ServerConnection } from '../servers/server-connection.js';

/**
 * Asks a server for suggestions (completion/complete) for one argument of a
 * prompt or one variable of a resource template. Only servers that declared
 * the `completions` capability are asked.
 */
export async function complete(
  connection: ServerConnection,
  ref: CompletionRef,
  argument: { name: string; value: string },
  context?: Record<string, string>,
): Promise<CompletionResult> {
  connection.requireCapability('completions');
  const result = await connection.request('completion/complete', (client) => {
    return client.complete({
      ref:
        ref.type === 'prompt'
          ? { type: 'ref/prompt', name: ref.name }
          : { type: 'ref/resource', uri: ref.uri },
      argument,
      ...(context && Object.keys(context).length > 0 ? { context: { arguments: context } } : {}),
    });
  });
  const { values, total, hasMore } = result.completion;
  // A server may send more than the protocol's 100; the UI never needs them.
  return CompletionResultSchema.parse({
    values: values.filter((v) => typeof v === 'string').slice(0, 100),
    ...(typeof total === 'number' ? { total } : {}),
    ...(typeof hasMore === 'boolean' ? { hasMore } : {}),
  });
}
