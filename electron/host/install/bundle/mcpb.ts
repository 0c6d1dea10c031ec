import type * as McpbNodeModule from '@anthropic-ai/mcpb/node';

/** The official MCP bundle package's Node entry (manifest schemas, signature block, OS trust store). */
export type McpbNode = typeof McpbNodeModule;

/** Loaded when a bundle is first opened: starting the app does not need it. */
export const loadMcpb = (): Promise<McpbNode> => import('@anthropic-ai/mcpb/node');
