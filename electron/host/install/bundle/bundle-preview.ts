import { sep } from 'node:path';
import { BUNDLE_TEXT_LIMITS } from '../../../../shared/model/bundle.js';
import type { BundleField, BundlePermission, BundlePreview } from '../../../../shared/model/bundle.js';
import { ellipsize } from '../../text.js';
import type { BundleManifest } from './bundle-manifest.js';
import type { OpenedBundle } from './bundle-files.js';
import type { LaunchTemplate } from './bundle-launch.js';
import type { BundleRecord } from './bundle-records.js';
import { compareVersions } from './bundle-version.js';

/**
 * Everything the person sees before a bundle is installed, from the opened
 * file and the state of this computer. Texts from the manifest are shortened
 * to the preview's limits here, so a huge description cannot make the page
 * refuse the preview.
 */

export interface RuntimeCheck {
  found: boolean;
  text: string;
}

export interface PreviewContext {
  token: string;
  fileName: string;
  serverName: string;
  /** The command line as it will be written (with the final install folder). */
  launch: LaunchTemplate;
  /** The install folder the command line uses. */
  dir: string;
  runtime: RuntimeCheck;
  /** The installed record of the same bundle, if any. */
  installed: BundleRecord | undefined;
  /** A server of that name exists that is not this bundle. */
  clash: boolean;
  platform: string;
}

const PLATFORM_NAMES: Record<string, string> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };
const platformName = (platform: string) => PLATFORM_NAMES[platform] ?? platform;
const RUNTIMES = new Set(['node', 'node.exe', 'python', 'python3', 'python.exe', 'uv', 'uv.exe']);

const text = (value: string, max: number = BUNDLE_TEXT_LIMITS.short) => ellipsize(value, max);
const name = (value: string) => ellipsize(value, BUNDLE_TEXT_LIMITS.name);

export function describeBundle(opened: OpenedBundle, context: PreviewContext): BundlePreview {
  const { manifest } = opened;
  const platforms = manifest.compatibility?.platforms ?? [];
  const platformOk = platforms.length === 0 || platforms.includes(context.platform);
  const installed = context.installed;
  const blockers: string[] = [];
  if (opened.signature.state === 'invalid')
    blockers.push(
      `The signature is invalid (${opened.signature.reason}), so this bundle cannot be installed.`,
    );
  if (!platformOk)
    blockers.push(
      `This bundle is for ${platforms.map(platformName).join(', ')}; this computer runs ${platformName(context.platform)}.`,
    );
  if (!context.runtime.found) blockers.push(context.runtime.text);
  if (context.clash)
    blockers.push(
      `A server named "${context.serverName}" already exists and was not installed from this bundle; rename or remove it first.`,
    );
  return {
    token: context.token,
    fileName: name(context.fileName),
    id: name(manifest.name),
    serverName: context.serverName,
    displayName: name(manifest.display_name ?? manifest.name),
    version: ellipsize(manifest.version, 64),
    description: text(manifest.description),
    ...(manifest.long_description !== undefined
      ? { longDescription: text(manifest.long_description, BUNDLE_TEXT_LIMITS.long) }
      : {}),
    author: {
      name: name(manifest.author.name),
      ...(manifest.author.email !== undefined ? { email: name(manifest.author.email) } : {}),
      ...(manifest.author.url !== undefined ? { url: name(manifest.author.url) } : {}),
    },
    ...(manifest.homepage !== undefined ? { homepage: name(manifest.homepage) } : {}),
    ...(manifest.repository !== undefined ? { repository: name(manifest.repository.url) } : {}),
    ...(manifest.license !== undefined ? { license: name(manifest.license) } : {}),
    manifestVersion: manifest.manifestVersion,
    serverType: manifest.server.type,
    tools: listed(manifest.tools),
    toolsGenerated: manifest.tools_generated === true,
    prompts: listed(manifest.prompts),
    promptsGenerated: manifest.prompts_generated === true,
    platforms: platforms.slice(0, 8),
    platformOk,
    runtimes: Object.fromEntries(
      Object.entries(manifest.compatibility?.runtimes ?? {})
        .slice(0, 8)
        .map(([key, value]) => [ellipsize(key, 16), ellipsize(value, 64)]),
    ),
    runtime: { found: context.runtime.found, text: text(context.runtime.text) },
    launch: {
      command: text(context.launch.command, BUNDLE_TEXT_LIMITS.path),
      args: context.launch.args.slice(0, 256).map((arg) => text(arg, BUNDLE_TEXT_LIMITS.path)),
      envNames: Object.keys(context.launch.env).slice(0, 256).map(name),
      env: Object.entries(context.launch.env)
        .slice(0, 256)
        .map(([key, value]) => ({ name: name(key), value: text(value, BUNDLE_TEXT_LIMITS.path) })),
    },
    permissions: permissionsOf(manifest, context),
    signature: opened.signature,
    fields: fieldsOf(manifest, installed),
    ...(installed !== undefined
      ? {
          installed: {
            version: ellipsize(installed.version, 64),
            relation: relationOf(manifest.version, installed.version),
          },
        }
      : {}),
    blockers: blockers.map((line) => text(line)),
    files: opened.files,
    unpackedBytes: opened.unpackedBytes,
  };
}

function listed(items: readonly { name: string; description?: string | undefined }[] | undefined) {
  return (items ?? []).slice(0, BUNDLE_TEXT_LIMITS.items).map((item) => ({
    name: name(item.name),
    ...(item.description !== undefined ? { description: text(item.description) } : {}),
  }));
}

function relationOf(next: string, installed: string): 'upgrade' | 'same' | 'downgrade' {
  const order = compareVersions(next, installed);
  return order > 0 ? 'upgrade' : order === 0 ? 'same' : 'downgrade';
}

function fieldsOf(manifest: BundleManifest, installed: BundleRecord | undefined): BundleField[] {
  return Object.entries(manifest.user_config ?? {})
    .slice(0, BUNDLE_TEXT_LIMITS.items)
    .map(([key, option]) => {
      const sensitive = option.sensitive === true;
      const current = installed?.values[key];
      const hadIt = installed !== undefined && (key in installed.values || key in installed.secrets);
      return {
        key,
        type: option.type,
        title: name(option.title || key),
        description: text(option.description),
        required: option.required === true,
        sensitive,
        multiple: option.multiple === true,
        ...(option.min !== undefined ? { min: option.min } : {}),
        ...(option.max !== undefined ? { max: option.max } : {}),
        ...(option.default !== undefined && !sensitive ? { default: boundValue(option.default) } : {}),
        ...(current !== undefined && !sensitive ? { current: boundValue(current) } : {}),
        ...(sensitive && installed !== undefined && key in installed.secrets ? { stored: true } : {}),
        ...(installed !== undefined && !hadIt ? { added: true } : {}),
      };
    });
}

function boundValue<T extends string | number | boolean | string[]>(value: T): T {
  if (typeof value === 'string') return ellipsize(value, BUNDLE_TEXT_LIMITS.path) as T;
  if (Array.isArray(value))
    return value.slice(0, 64).map((item) => ellipsize(item, BUNDLE_TEXT_LIMITS.path)) as T;
  return value;
}

/** What running this bundle gives it, in plain words. */
function permissionsOf(manifest: BundleManifest, context: PreviewContext): BundlePermission[] {
  const options = Object.entries(manifest.user_config ?? {});
  const titles = (match: (type: string, sensitive: boolean) => boolean) =>
    options.filter(([, o]) => match(o.type, o.sensitive === true)).map(([key, o]) => `"${o.title || key}"`);
  const permissions: BundlePermission[] = [
    {
      kind: 'program',
      text: 'Runs as a program on this computer with your permissions: like any program you start, it can read and change your files.',
    },
  ];
  const command = context.launch.command;
  const inside = command.startsWith(context.dir + sep);
  const base = command.split(/[\\/]/).pop() ?? command;
  if (!inside && !RUNTIMES.has(base.toLowerCase()))
    permissions.push({
      kind: 'outside-program',
      text: `Starts a program that is not part of the bundle: ${command}`,
    });
  const folders = titles((type) => type === 'directory');
  if (folders.length > 0)
    permissions.push({ kind: 'folders', text: `Works in the folders you choose for ${folders.join(', ')}.` });
  const files = titles((type) => type === 'file');
  if (files.length > 0)
    permissions.push({ kind: 'files', text: `Reads the files you choose for ${files.join(', ')}.` });
  const secrets = titles((_type, sensitive) => sensitive);
  if (secrets.length > 0)
    permissions.push({
      kind: 'secrets',
      text: `Receives the secrets you enter for ${secrets.join(', ')} (stored encrypted on this computer).`,
    });
  const envNames = Object.keys(context.launch.env);
  if (envNames.length > 0)
    permissions.push({
      kind: 'environment',
      text: `Is given the environment variables ${envNames.join(', ')}.`,
    });
  const policies = manifest.privacy_policies ?? [];
  permissions.push({
    kind: 'network',
    text:
      policies.length > 0
        ? `Sends data to outside services; their privacy policies: ${policies.join(', ')}`
        : 'Does not declare network use; like any program, it can still reach the network.',
  });
  return permissions.map((permission) => ({ ...permission, text: text(permission.text) }));
}
