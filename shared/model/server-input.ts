import { z } from 'zod';
import { HttpServerConfigSchema, ServerNameSchema, StdioServerInputSchema } from './config.js';

/**
 * What the add/edit form sends: a stdio server (command, args, env, cwd) or a
 * remote one (URL, transport type, headers). The host merges it into the
 * stored entry, keeping every other key (disabled, disabledTools, timeouts…).
 */

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const RemoteTransportSchema = HttpServerConfigSchema.shape.type.unwrap();
export type RemoteTransport = z.infer<typeof RemoteTransportSchema>;

export const HttpServerInputSchema = z.object({
  name: ServerNameSchema,
  url: z
    .string()
    .trim()
    .max(8192)
    .pipe(z.url({ protocol: /^https?$/, error: 'URL must be http:// or https://' })),
  /** Absent: Streamable HTTP with a fallback to SSE, as the host decides. */
  type: RemoteTransportSchema.optional(),
  headers: z.record(z.string().regex(HEADER_NAME, 'Invalid header name'), z.string().max(16_384)).default({}),
  /** OAuth: a client registered beforehand with the authorization server, and the scopes to ask for. */
  oauth: z
    .object({
      clientId: z.string().trim().max(512).default(''),
      /**
       * Write-only: typed in the form, stored encrypted by the host, never
       * sent back. Empty keeps the stored secret; `clear` forgets it.
       */
      clientSecret: z.string().max(4096).default(''),
      clearClientSecret: z.boolean().default(false),
      /** Output only: whether a client secret is stored for this server. */
      clientSecretStored: z.boolean().default(false),
      /** Space-separated. */
      scopes: z.string().trim().max(4096).default(''),
    })
    .strict()
    .optional(),
});
export type HttpServerInput = z.infer<typeof HttpServerInputSchema>;

export const ServerInputSchema = z.discriminatedUnion('transport', [
  StdioServerInputSchema.extend({ transport: z.literal('stdio') }).strict(),
  HttpServerInputSchema.extend({ transport: z.literal('http') }).strict(),
]);
export type ServerInput = z.infer<typeof ServerInputSchema>;
export type ServerInputValues = z.input<typeof ServerInputSchema>;
