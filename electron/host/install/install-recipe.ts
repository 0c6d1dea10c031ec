import type {
  InstallField,
  InstallPreview,
  InstallTemplate,
  NamedValue,
} from '../../../shared/model/registry.js';
import { MASKED } from '../../../shared/model/registry.js';
import type { ServerInput } from '../../../shared/model/server-input.js';
import { ServerInputSchema } from '../../../shared/model/server-input.js';
import { HostError } from '../errors.js';
import { secretReference } from '../secrets/server-secrets.js';
import { judgeOptions } from './registry/launcher-options.js';
import type { Launcher } from './registry/launcher-options.js';

/**
 * What an install turns into, before the person has filled in its values:
 * a command (or URL) whose arguments, env values and headers are templates
 * of literal text and fields. The registry mapping (registry/entry-options.ts)
 * and install links (install-links.ts) both produce one; `buildInstall`
 * fills it in, checks every value, and says which values are secrets (they
 * are stored encrypted and the entry holds `${secret:NAME}`).
 */

/** A value: literal text and the fields the person fills in, in order. */
export type Template = readonly ({ text: string } | { field: string })[];

/** Arguments that stand or fall together ("--port", "<port>"). */
export interface ArgGroup {
  tokens: readonly Template[];
  /** Left out when one of its fields is empty, unless required (then the field is required). */
  required: boolean;
  /** Only present when this boolean field is "true" (a flag without a value). */
  when?: string | undefined;
  /** Only present when this env variable is set (docker's `-e NAME`). */
  ifEnv?: string | undefined;
}

export interface KeyedValue {
  name: string;
  value: Template;
  required: boolean;
}

export type Recipe =
  | {
      kind: 'stdio';
      command: string;
      args: readonly ArgGroup[];
      env: readonly KeyedValue[];
      fields: readonly InstallField[];
      /**
       * The argument groups `[from, to)` that are options of a package
       * launcher (a registry entry's runtimeArguments), judged again once
       * their values are filled in (registry/launcher-options.ts).
       */
      launcherOptions?: { launcher: Launcher; identifier: string; from: number; to: number };
    }
  | {
      kind: 'remote';
      /** Fields in a URL are never secrets (see registry/entry-options.ts). */
      url: Template;
      transport: 'streamable-http' | 'sse';
      headers: readonly KeyedValue[];
      fields: readonly InstallField[];
    };

/** A filled-in recipe: the form input to save and the secrets to store first. */
export interface BuiltInstall {
  input: ServerInput;
  /** Stored encrypted under these keys; the entry refers to them as `${secret:KEY}`. */
  secrets: Record<string, string>;
  preview: InstallPreview;
}

export const lit = (text: string): Template => [{ text }];
export const field = (id: string): Template => [{ field: id }];

/** The recipe as the detail view shows it before values: `<label>` where a value goes. */
export function templateOf(recipe: Recipe): InstallTemplate {
  const label = (id: string) => `<${recipe.fields.find((f) => f.id === id)?.label ?? id}>`;
  const show = (template: Template) =>
    template.map((piece) => ('text' in piece ? piece.text : label(piece.field))).join('');
  if (recipe.kind === 'stdio') {
    return {
      kind: 'stdio',
      command: recipe.command,
      args: recipe.args.flatMap((group) => group.tokens.map(show)),
      envNames: recipe.env.map((e) => e.name),
      env: recipe.env.map((e) => ({ name: e.name, value: show(e.value) })),
    };
  }
  return {
    kind: 'remote',
    url: show(recipe.url),
    transport: recipe.transport,
    headerNames: recipe.headers.map((h) => h.name),
    headers: recipe.headers.map((h) => ({ name: h.name, value: show(h.value) })),
  };
}

/** A typed value that names a variable of the host's environment instead of holding the secret itself. */
const ENV_REFERENCE = /^\$\{env:[A-Za-z_][A-Za-z0-9_]*\}$/;
const MAX_VALUE = 16_384;
/** `${env:…}`, `${secret:…}`, `${input:…}`, `${user_config.…}`: text the host would replace with something else. */
const HOST_REFERENCE = /\$\{(env:|secret:|input:|user_config\.)/g;

function countReferences(text: string): number {
  return [...text.matchAll(HOST_REFERENCE)].length;
}

/**
 * Fills the recipe with the person's values (defaults where they typed
 * nothing), checks each (required, choices, number, boolean, no line breaks
 * in headers), and builds the entry. Throws one HostError naming the first
 * value that is wrong.
 */
export function buildInstall(
  recipe: Recipe,
  name: string,
  typed: Readonly<Record<string, string>>,
): BuiltInstall {
  const fields = new Map(recipe.fields.map((f) => [f.id, f]));
  for (const id of Object.keys(typed)) {
    if (!fields.has(id)) throw new HostError('invalid_params', `This install asks for no value "${id}"`);
  }
  const values = new Map<string, string>();
  for (const f of recipe.fields) values.set(f.id, checkValue(f, typed[f.id] ?? f.default ?? ''));

  const secrets: Record<string, string> = {};
  const secretNames: string[] = [];
  const keyOf = new Map<string, string>();
  const secretKey = (f: InstallField): string => {
    const known = keyOf.get(f.id);
    if (known !== undefined) return known;
    const base =
      f.id
        .replace(/[^A-Za-z0-9_]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .toUpperCase() || 'SECRET';
    let key = /^[A-Za-z_]/.test(base) ? base : `S_${base}`;
    const taken = new Set(keyOf.values());
    for (let n = 2; taken.has(key); n++) key = `${base}_${String(n)}`;
    keyOf.set(f.id, key);
    return key;
  };

  /** The text the entry holds, and the text the preview shows. */
  const fill = (template: Template): { stored: string; shown: string } => {
    let stored = '';
    let shown = '';
    // References each piece holds on its own; the joined text may hold no more.
    let references = 0;
    for (const [index, piece] of template.entries()) {
      if ('text' in piece) {
        stored += piece.text;
        shown += piece.text;
        references += countReferences(piece.text);
        continue;
      }
      const f = fields.get(piece.field);
      const value = values.get(piece.field) ?? '';
      if (f?.secret === true && value !== '' && !ENV_REFERENCE.test(value)) {
        const key = secretKey(f);
        if (!(key in secrets)) secretNames.push(f.label);
        secrets[key] = value;
        stored += secretReference(key);
        shown += MASKED;
        references += 1;
      } else {
        // A URL part is one component, except a whole base address the template starts with.
        const text = f?.target === 'url' && index > 0 ? encodeURIComponent(value) : value;
        stored += text;
        shown += text;
        references += countReferences(text);
      }
    }
    if (countReferences(stored) > references) {
      throw new HostError(
        'invalid_params',
        `A value of this install joins with the entry's own text into a reference to your variables or secrets ("${shown.slice(0, 60)}")`,
      );
    }
    return { stored, shown };
  };
  const filledIn = (template: Template) =>
    template.every((piece) => 'text' in piece || (values.get(piece.field) ?? '') !== '');
  /** What is installed, and the preview that shows it with the person's secrets masked. */
  const built = (input: BuiltInstall['input'], launch: BuiltInstall['preview']['launch']): BuiltInstall => ({
    input,
    secrets,
    preview: { name, launch, secrets: secretNames },
  });
  /** Variables or headers: each filled in, or left out when optional and one of its fields is empty. */
  const fillNamed = (entries: readonly KeyedValue[]) => {
    const stored: Record<string, string> = {};
    const shown: NamedValue[] = [];
    for (const entry of entries) {
      if (!entry.required && !filledIn(entry.value)) continue;
      const filled = fill(entry.value);
      stored[entry.name] = filled.stored;
      shown.push({ name: entry.name, value: filled.shown });
    }
    return { stored, shown };
  };

  if (recipe.kind === 'stdio') {
    const { stored: env, shown: shownEnv } = fillNamed(recipe.env);
    const args: string[] = [];
    const shownArgs: string[] = [];
    const options: string[] = [];
    for (const [index, group] of recipe.args.entries()) {
      if (group.ifEnv !== undefined && !(group.ifEnv in env)) continue;
      if (group.when !== undefined) {
        if (values.get(group.when) !== 'true') continue;
      } else if (!group.required && !group.tokens.every(filledIn)) continue;
      const isOption =
        recipe.launcherOptions !== undefined &&
        index >= recipe.launcherOptions.from &&
        index < recipe.launcherOptions.to;
      for (const token of group.tokens) {
        const { stored, shown } = fill(token);
        args.push(stored);
        shownArgs.push(shown);
        if (isOption) options.push(stored);
      }
    }
    if (recipe.launcherOptions !== undefined) {
      const { launcher, identifier } = recipe.launcherOptions;
      const verdict = judgeOptions(launcher, options, identifier);
      if (verdict.refused !== undefined)
        throw new HostError('invalid_params', `This install cannot be used: ${verdict.refused}`);
    }
    return built(parseInput({ transport: 'stdio', name, command: recipe.command, args, env }), {
      kind: 'stdio',
      command: recipe.command,
      args: shownArgs,
      envNames: Object.keys(env),
      env: shownEnv,
    });
  }

  const url = fill(recipe.url).stored;
  const { stored: headers, shown: shownHeaders } = fillNamed(recipe.headers);
  return built(parseInput({ transport: 'http', name, url, type: recipe.transport, headers }), {
    kind: 'remote',
    url,
    transport: recipe.transport,
    headerNames: Object.keys(headers),
    headers: shownHeaders,
  });
}

function checkValue(f: InstallField, raw: string): string {
  const value = f.format === 'filepath' || f.secret ? raw : raw.trim();
  const what = `"${f.label}"`;
  if (value.length > MAX_VALUE) throw new HostError('invalid_params', `${what} is too long`);
  if (value === '') {
    if (f.required) throw new HostError('invalid_params', `${what} is required`);
    return value;
  }
  if (value.includes('\0')) throw new HostError('invalid_params', `${what} holds a NUL character`);
  if (f.target === 'header' && /[\r\n]/.test(value)) {
    throw new HostError('invalid_params', `${what} is a header value: it cannot hold a line break`);
  }
  if (f.choices !== undefined && f.choices.length > 0 && !f.choices.includes(value)) {
    throw new HostError('invalid_params', `${what} must be one of: ${f.choices.join(', ')}`);
  }
  if (f.format === 'number' && !/^-?\d+(\.\d+)?$/.test(value)) {
    throw new HostError('invalid_params', `${what} must be a number`);
  }
  if (f.format === 'boolean' && value !== 'true' && value !== 'false') {
    throw new HostError('invalid_params', `${what} must be true or false`);
  }
  return value;
}

/** The built entry through the same schema the add/edit form's input goes through. */
function parseInput(value: unknown): ServerInput {
  const parsed = ServerInputSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  throw new HostError(
    'invalid_params',
    `The entry this install makes is not valid: ${where}${issue?.message ?? 'invalid'}`,
  );
}
