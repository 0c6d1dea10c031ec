import { z } from 'zod';

/**
 * The MCP registry's read API (`/v0.1/servers`) and its `server.json`, as
 * far as installing needs them, with bounds on every string, list and map:
 * a registry is a server on the network and may send anything. Unknown
 * fields are dropped; a field we need that is missing or malformed makes
 * that one entry unusable, never the page (see registry-client.ts).
 */

const text = (max: number) => z.string().max(max);
const SHORT = 256;
const LONG = 4096;
/** Inputs (arguments, env variables, headers) of one package or remote. */
const MAX_INPUTS = 64;

/** An input's own fields (the spec's "Input"). */
const InputFields = {
  description: text(LONG).optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional().catch(undefined),
  value: text(LONG).optional(),
  isSecret: z.boolean().optional(),
  default: text(LONG).optional(),
  placeholder: text(SHORT).optional(),
  choices: z.array(text(SHORT)).max(64).optional(),
};

export const InputSchema = z.object(InputFields);
export type RegistryInput = z.infer<typeof InputSchema>;

/** `{name}` placeholders of `value`, each an input of its own. */
const Variables = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/), InputSchema)
  .refine((map) => Object.keys(map).length <= MAX_INPUTS, 'too many variables');

const InputWithVariables = { ...InputFields, variables: Variables.optional() };

export const PositionalArgumentSchema = z.object({
  ...InputWithVariables,
  type: z.literal('positional'),
  valueHint: text(SHORT).optional(),
  isRepeated: z.boolean().optional(),
});

export const NamedArgumentSchema = z.object({
  ...InputWithVariables,
  type: z.literal('named'),
  /** The flag, dashes included ("--port"). */
  name: z
    .string()
    .min(1)
    .max(SHORT)
    .regex(/^-{1,2}[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a flag like --name'),
  isRepeated: z.boolean().optional(),
});

export const ArgumentSchema = z.discriminatedUnion('type', [PositionalArgumentSchema, NamedArgumentSchema]);
export type RegistryArgument = z.infer<typeof ArgumentSchema>;

export const KeyValueInputSchema = z.object({ ...InputWithVariables, name: z.string().min(1).max(SHORT) });
export type RegistryKeyValueInput = z.infer<typeof KeyValueInputSchema>;

const UrlTemplate = z.string().min(1).max(LONG);

export const TransportSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('stdio') }),
  z.object({
    type: z.literal('streamable-http'),
    url: UrlTemplate,
    headers: z.array(KeyValueInputSchema).max(MAX_INPUTS).optional(),
    variables: Variables.optional(),
  }),
  z.object({
    type: z.literal('sse'),
    url: UrlTemplate,
    headers: z.array(KeyValueInputSchema).max(MAX_INPUTS).optional(),
    variables: Variables.optional(),
  }),
]);

export const PackageSchema = z.object({
  registryType: text(64),
  registryBaseUrl: text(LONG).optional(),
  identifier: z.string().min(1).max(LONG),
  version: text(SHORT).optional(),
  fileSha256: text(64).optional(),
  runtimeHint: text(64).optional(),
  transport: TransportSchema,
  runtimeArguments: z.array(ArgumentSchema).max(MAX_INPUTS).optional(),
  packageArguments: z.array(ArgumentSchema).max(MAX_INPUTS).optional(),
  environmentVariables: z.array(KeyValueInputSchema).max(MAX_INPUTS).optional(),
});
export type RegistryPackage = z.infer<typeof PackageSchema>;

export const RemoteSchema = z.discriminatedUnion('type', [
  TransportSchema.options[1],
  TransportSchema.options[2],
]);
export type RegistryRemote = z.infer<typeof RemoteSchema>;

/** A `server.json` (the spec's ServerDetail). */
export const ServerDetailSchema = z.object({
  name: z.string().min(1).max(200),
  description: text(LONG).default(''),
  title: text(SHORT).optional(),
  version: z.string().min(1).max(SHORT),
  repository: z
    .object({ url: text(LONG), source: text(64).optional() })
    .optional()
    .catch(undefined),
  websiteUrl: text(LONG).optional().catch(undefined),
  packages: z.array(PackageSchema).max(32).optional(),
  remotes: z.array(RemoteSchema).max(32).optional(),
});
export type ServerDetail = z.infer<typeof ServerDetailSchema>;

/** Registry-managed metadata of one entry; anything unexpected here is ignored. */
const OfficialMetaSchema = z
  .object({
    status: z.enum(['active', 'deprecated', 'deleted']).optional().catch(undefined),
    statusMessage: text(500).optional().catch(undefined),
    isLatest: z.boolean().optional().catch(undefined),
  })
  .optional()
  .catch(undefined);

export const ServerResponseSchema = z.object({
  server: ServerDetailSchema,
  _meta: z
    .object({ 'io.modelcontextprotocol.registry/official': OfficialMetaSchema })
    .optional()
    .catch(undefined),
});
export type ServerResponse = z.infer<typeof ServerResponseSchema>;

/** The list envelope; its entries are checked one by one. */
export const ServerListSchema = z.object({
  servers: z.array(z.unknown()).max(200),
  metadata: z
    .object({
      nextCursor: z.string().max(1024).optional(),
      count: z.number().int().min(0).optional(),
    })
    .optional(),
});
