import { z } from 'zod';

/**
 * MCP Apps metadata of a tool (`_meta.ui`): which `ui://` view shows it and
 * who may call it. Kept apart from apps.ts so that server.ts can parse tools
 * with it without an import cycle.
 */

/** The extension's identifier in `capabilities.extensions`. */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The only mime type a UI resource may have. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** A UI resource larger than this (bytes of HTML) is not shown. */
export const MAX_APP_HTML_BYTES = 5 * 1024 * 1024;

export const ToolVisibilitySchema = z.enum(['model', 'app']);
export type ToolVisibility = z.infer<typeof ToolVisibilitySchema>;

/**
 * `_meta` of a tool, reduced to what the host uses. Each field falls back to
 * "absent" when malformed, so a bad `_meta` never drops the tool itself.
 */
export const ToolMetaSchema = z.object({
  ui: z
    .object({
      resourceUri: z.string().max(2048).optional().catch(undefined),
      visibility: z.array(ToolVisibilitySchema).max(2).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  /** The flat key of earlier drafts; still sent by some servers. */
  'ui/resourceUri': z.string().max(2048).optional().catch(undefined),
});
export type ToolMeta = z.infer<typeof ToolMetaSchema>;

interface WithMeta {
  _meta?: ToolMeta | undefined;
}

/** The `ui://` resource a tool is shown with, if any (a non-ui:// value counts as none). */
export function toolResourceUri(tool: WithMeta): string | undefined {
  const uri = tool._meta?.ui?.resourceUri ?? tool._meta?.['ui/resourceUri'];
  return uri !== undefined && uri.startsWith('ui://') ? uri : undefined;
}

/** Who may call a tool; the spec's default is both the model and the app. */
export function toolVisibility(tool: WithMeta): readonly ToolVisibility[] {
  return tool._meta?.ui?.visibility ?? ['model', 'app'];
}

/** Whether the model may see and call the tool. */
export const visibleToModel = (tool: WithMeta): boolean => toolVisibility(tool).includes('model');
/** Whether an app of the same server may call the tool. */
export const callableByApp = (tool: WithMeta): boolean => toolVisibility(tool).includes('app');
