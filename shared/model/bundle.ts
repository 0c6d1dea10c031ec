import { z } from 'zod';

/**
 * MCP bundles (`.mcpb`, formerly `.dxt`): what the host shows of a bundle
 * before anything is installed, and what the person answers. Everything here
 * comes from a file someone else made, so every text is bounded: the host
 * shortens what is longer before it sends a preview.
 */

/** Largest bundle the page may upload (the host reads picked files up to BUNDLE_FILE_MAX_BYTES). */
export const BUNDLE_UPLOAD_MAX_BYTES = 128 * 1024 * 1024;
/** Largest bundle file the host opens (picked in a native dialog, or named on the command line). */
export const BUNDLE_FILE_MAX_BYTES = 256 * 1024 * 1024;
/** One upload chunk, in bytes before base64 (3 MiB → 4 MiB of text, far below a WebSocket frame). */
export const BUNDLE_CHUNK_BYTES = 3 * 1024 * 1024;

/** Bounds of the texts a preview carries (longer ones are shortened by the host, with "…"). */
export const BUNDLE_TEXT_LIMITS = {
  name: 200,
  short: 2_000,
  long: 20_000,
  path: 4_096,
  items: 500,
} as const;

const short = z.string().max(BUNDLE_TEXT_LIMITS.short);
const name = z.string().max(BUNDLE_TEXT_LIMITS.name);

/** A host-issued handle of an opened bundle; the renderer never names a file path. */
export const BundleTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'Invalid bundle token');

/** A user_config value as the manifest types it: text, number, switch, or several paths. */
export const BundleValueSchema = z.union([
  z.string().max(BUNDLE_TEXT_LIMITS.path),
  z.number(),
  z.boolean(),
  z.array(z.string().max(BUNDLE_TEXT_LIMITS.path)).max(64),
]);
export type BundleValue = z.infer<typeof BundleValueSchema>;

/** A `user_config` key: what manifests use (letters, digits, `_`, `-`, `.`). */
export const BundleFieldKeySchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.-]+$/, 'Invalid setting name');

/** One setting the bundle asks for (`user_config`). */
export const BundleFieldSchema = z.object({
  key: BundleFieldKeySchema,
  type: z.enum(['string', 'number', 'boolean', 'directory', 'file']),
  title: name,
  description: short,
  required: z.boolean(),
  /** Masked in the form, stored encrypted, never sent back to the page. */
  sensitive: z.boolean(),
  /** Several values (paths): one per line in the form. */
  multiple: z.boolean(),
  min: z.number().optional(),
  max: z.number().optional(),
  /** The manifest's default (never for a sensitive field: it would be shown). */
  default: BundleValueSchema.optional(),
  /** Update: the value the installed version uses (non-sensitive fields only). */
  current: BundleValueSchema.optional(),
  /** Update: the host holds a value for this sensitive field; leaving it empty keeps it. */
  stored: z.boolean().optional(),
  /** Update: the installed version did not ask for this field. */
  added: z.boolean().optional(),
});
export type BundleField = z.infer<typeof BundleFieldSchema>;

/**
 * The signature at the end of the file (PKCS#7, as `mcpb sign` writes it):
 * none; valid, from a publisher this computer's certificate store trusts or
 * not; or invalid (the file changed after signing, or the block is broken),
 * which refuses the install.
 */
export const BundleSignatureSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('unsigned') }),
  z.object({
    state: z.literal('signed'),
    publisher: name,
    issuer: name,
    /** The certificate chains to a root this computer trusts. */
    trusted: z.boolean(),
    selfSigned: z.boolean(),
    validFrom: z.string().max(64),
    validTo: z.string().max(64),
    /** SHA-256 of the signing certificate, hex. */
    fingerprint: z.string().max(128),
  }),
  z.object({ state: z.literal('invalid'), reason: short }),
]);
export type BundleSignature = z.infer<typeof BundleSignatureSchema>;

/** One thing the bundle will be able to do once it runs. */
export const BundlePermissionSchema = z.object({
  kind: z.enum(['program', 'outside-program', 'folders', 'files', 'secrets', 'environment', 'network']),
  text: short,
});
export type BundlePermission = z.infer<typeof BundlePermissionSchema>;

const ListedSchema = z.object({ name, description: short.optional() });

/** Everything shown before a bundle is installed. */
export const BundlePreviewSchema = z.object({
  token: BundleTokenSchema,
  fileName: name,
  /** The manifest's `name`: the bundle's identity across versions. */
  id: name,
  /** The server's name in the configuration (the id, made a valid server name). */
  serverName: name,
  displayName: name,
  version: z.string().max(64),
  description: short,
  longDescription: z.string().max(BUNDLE_TEXT_LIMITS.long).optional(),
  author: z.object({ name, email: name.optional(), url: name.optional() }),
  homepage: name.optional(),
  repository: name.optional(),
  license: name.optional(),
  manifestVersion: z.string().max(16),
  serverType: z.enum(['node', 'python', 'binary', 'uv']),
  tools: z.array(ListedSchema).max(BUNDLE_TEXT_LIMITS.items),
  /** The server may offer more tools than it declares. */
  toolsGenerated: z.boolean(),
  prompts: z.array(ListedSchema).max(BUNDLE_TEXT_LIMITS.items),
  promptsGenerated: z.boolean(),
  /** Declared platforms (none: any) and whether this computer is one of them. */
  platforms: z.array(z.string().max(16)).max(8),
  platformOk: z.boolean(),
  /** Declared runtime versions, e.g. { node: ">=18" }. */
  runtimes: z.record(z.string().max(16), z.string().max(64)),
  /** The program that runs the server here, and how it was found (or that it was not). */
  runtime: z.object({ found: z.boolean(), text: short }),
  /** The exact command line that will run (sensitive settings as `${user_config.KEY}`). */
  launch: z.object({
    command: z.string().max(BUNDLE_TEXT_LIMITS.path),
    args: z.array(z.string().max(BUNDLE_TEXT_LIMITS.path)).max(256),
    envNames: z.array(name).max(256),
    /** Each variable with the bundle's value (a setting shows as `${user_config.KEY}`). */
    env: z.array(z.object({ name, value: z.string().max(BUNDLE_TEXT_LIMITS.path) })).max(256),
  }),
  permissions: z.array(BundlePermissionSchema).max(64),
  signature: BundleSignatureSchema,
  fields: z.array(BundleFieldSchema).max(BUNDLE_TEXT_LIMITS.items),
  /** The same bundle (by id) is already installed: which version, and how this one relates. */
  installed: z
    .object({ version: z.string().max(64), relation: z.enum(['upgrade', 'same', 'downgrade']) })
    .optional(),
  /** Why it cannot be installed (one line each); empty when it can. */
  blockers: z.array(short).max(16),
  files: z.number().int().nonnegative(),
  unpackedBytes: z.number().int().nonnegative(),
});
export type BundlePreview = z.infer<typeof BundlePreviewSchema>;

/** Where the bundle to open comes from: an upload the page made, or the host's own file picker. */
export const BundleSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('upload'), uploadId: BundleTokenSchema }).strict(),
  z.object({ kind: z.literal('pick') }).strict(),
]);

/** One piece of an upload (the first without an id; the host answers with one). */
export const BundleUploadChunkSchema = z
  .object({
    uploadId: BundleTokenSchema.optional(),
    fileName: z.string().min(1).max(255),
    totalBytes: z.number().int().positive().max(BUNDLE_UPLOAD_MAX_BYTES),
    offset: z.number().int().nonnegative(),
    /** Base64 of at most BUNDLE_CHUNK_BYTES bytes. */
    data: z
      .string()
      .max(Math.ceil(BUNDLE_CHUNK_BYTES / 3) * 4)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Invalid chunk'),
  })
  .strict();

/** The answers of the install form. Sensitive fields left out keep their stored value (update). */
export const BundleInstallSchema = z
  .object({
    token: BundleTokenSchema,
    values: z.record(BundleFieldKeySchema, BundleValueSchema),
  })
  .strict();
export type BundleInstall = z.infer<typeof BundleInstallSchema>;

/** Where a server came from, recorded in its configuration entry. */
export const BundleOriginSchema = z.looseObject({
  id: z.string().min(1).max(BUNDLE_TEXT_LIMITS.name),
  version: z.string().min(1).max(64),
});
export type BundleOrigin = z.infer<typeof BundleOriginSchema>;
