import type { InstallField, InstallOption } from '../../../../shared/model/registry.js';
import { field, lit, templateOf } from '../install-recipe.js';
import type { ArgGroup, KeyedValue, Recipe, Template } from '../install-recipe.js';
import { refusedEnvMessage, refusedEnvReason } from '../outsider-env.js';
import { judgeOptions } from './launcher-options.js';
import type { Launcher } from './launcher-options.js';
import { packageKind } from './registry-client.js';
import type {
  RegistryArgument,
  RegistryInput,
  RegistryKeyValueInput,
  RegistryPackage,
  RegistryRemote,
  ServerResponse,
} from './registry-schema.js';

/**
 * A registry entry's packages and remotes as install options: the recipe
 * (what will run, with the values to ask for) and the view of it, or one
 * line saying why it cannot be installed. Everything here comes from the
 * registry, so it is checked as hostile: names and versions that could be
 * read as options by npx, uvx or docker, env variables that change how
 * programs load, fixed values that would send the person's own environment
 * (`${env:…}`) or stored secrets somewhere.
 */

export interface EntryOption {
  view: InstallOption;
  /** Absent when the option cannot be installed (view.problem says why). */
  recipe?: Recipe;
  /** The runtime command the recipe needs on this machine (npx, uvx, docker). */
  runtime?: string;
}

/** npm: an optional @scope, lowercase, no leading dot, dash or underscore (so never an npx option). */
const NPM_NAME = /^(@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/;
/** PyPI (PEP 508 names). */
const PYPI_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** A container image reference: registry/path[:tag][@digest], never starting with a dash. */
const IMAGE = /^[a-z0-9][a-z0-9._/-]*(:[A-Za-z0-9_][A-Za-z0-9._-]{0,127})?(@sha256:[a-f0-9]{64})?$/;
/** A pinned version: no ranges, no leading dash. */
const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A fixed value must not name the person's variables or the host's stored secrets. */
const HOST_REFERENCE = /\$\{(env|secret|input):/;

const RUNTIMES = { npm: 'npx', pypi: 'uvx', oci: 'docker' } as const;
const RUNTIME_LAUNCHER: Record<'npm' | 'pypi' | 'oci', Launcher> = RUNTIMES;

/** Refused while building a recipe; the message becomes the option's one line. */
class Unusable extends Error {}

/** Every package, then every remote, in the registry's order. */
export function entryOptions(response: ServerResponse): EntryOption[] {
  const { server } = response;
  const packages = (server.packages ?? []).map((pkg, index) => packageOption(pkg, index));
  const offset = packages.length;
  const remotes = (server.remotes ?? []).map((remote, i) => remoteOption(remote, offset + i));
  return [...packages, ...remotes];
}

function packageOption(pkg: RegistryPackage, index: number): EntryOption {
  const kind = packageKind(pkg.registryType);
  const label = `${registryLabel(pkg.registryType)} ${pkg.identifier}${pkg.version !== undefined ? ` ${pkg.version}` : ''}`;
  const refuse = (problem: string): EntryOption => ({ view: { index, kind, label, problem, fields: [] } });
  if (kind === 'other') {
    if (pkg.registryType === 'mcpb') {
      return refuse(
        'This is an MCP bundle (.mcpb): download the bundle and open it with the app to install it',
      );
    }
    if (pkg.registryType === 'nuget') {
      return refuse('NuGet packages (.NET tools) cannot be installed by this app yet');
    }
    return refuse(`Packages from "${pkg.registryType}" cannot be installed by this app`);
  }
  if (pkg.transport.type !== 'stdio') {
    return refuse(
      `This package serves MCP over ${pkg.transport.type === 'sse' ? 'SSE' : 'HTTP'} from your machine, which the app cannot start yet`,
    );
  }
  const runtime = RUNTIMES[kind];
  if (pkg.runtimeHint !== undefined && pkg.runtimeHint !== runtime) {
    return refuse(
      `It asks to be run with "${pkg.runtimeHint}"; the app runs ${kind} packages with ${runtime} only`,
    );
  }
  try {
    const recipe = packageRecipe(kind, pkg, runtime);
    const template = templateOf(recipe);
    // What the launcher is told before the package, as the template shows it (`<name>` for a value to type).
    const optionTokens =
      recipe.kind === 'stdio' && recipe.launcherOptions && template.kind === 'stdio'
        ? template.args.slice(
            tokenCount(recipe.args.slice(0, recipe.launcherOptions.from)),
            tokenCount(recipe.args.slice(0, recipe.launcherOptions.to)),
          )
        : [];
    const verdict = judgeOptions(RUNTIME_LAUNCHER[kind], optionTokens, pkg.identifier);
    if (verdict.refused !== undefined) throw new Unusable(verdict.refused);
    const runs = `${label}, run by ${[runtime, ...(kind === 'oci' ? ['run'] : []), ...verdict.shown].join(' ')}`;
    const warnings =
      verdict.shown.length > 0
        ? [
            `The entry adds options to ${runtime}: ${verdict.shown.join(' ')}. Read them before installing: they run before the package does`,
          ]
        : [];
    return {
      view: {
        index,
        kind,
        label: runs,
        template,
        fields: [...recipe.fields],
        ...(warnings.length > 0 ? { warnings } : {}),
      },
      recipe,
      runtime,
    };
  } catch (error) {
    if (error instanceof Unusable) return refuse(error.message);
    throw error;
  }
}

function packageRecipe(kind: 'npm' | 'pypi' | 'oci', pkg: RegistryPackage, runtime: string): Recipe {
  const fields: InstallField[] = [];
  const env = (pkg.environmentVariables ?? []).map((input) => keyedValue(input, 'env', fields));
  const runtimeArgs = (pkg.runtimeArguments ?? []).map((arg, i) =>
    argGroup(arg, `runtime-arg-${String(i + 1)}`, fields),
  );
  const packageArgs = (pkg.packageArguments ?? []).map((arg, i) =>
    argGroup(arg, `arg-${String(i + 1)}`, fields),
  );
  const version = pkg.version;
  if (kind !== 'oci' || !/[:@]/.test(pkg.identifier.split('/').pop() ?? '')) {
    if (version === undefined) throw new Unusable('The entry names no version to pin');
    if (!VERSION.test(version)) throw new Unusable(`"${version}" is not a version the app can pin`);
  }
  const fixed = (text: string): ArgGroup => ({ tokens: [lit(text)], required: true });
  if (kind === 'npm') {
    if (!NPM_NAME.test(pkg.identifier)) throw new Unusable(`"${pkg.identifier}" is not an npm package name`);
    const yes = runtimeArgs.some((g) => g.tokens.some((t) => isText(t, '-y') || isText(t, '--yes')));
    const from = yes ? 0 : 1;
    return {
      kind: 'stdio',
      command: runtime,
      args: [
        ...(yes ? [] : [fixed('-y')]),
        ...runtimeArgs,
        fixed(`${pkg.identifier}@${version ?? ''}`),
        ...packageArgs,
      ],
      env,
      fields,
      launcherOptions: { launcher: 'npx', identifier: pkg.identifier, from, to: from + runtimeArgs.length },
    };
  }
  if (kind === 'pypi') {
    if (!PYPI_NAME.test(pkg.identifier)) throw new Unusable(`"${pkg.identifier}" is not a PyPI package name`);
    return {
      kind: 'stdio',
      command: runtime,
      args: [...runtimeArgs, fixed(`${pkg.identifier}==${version ?? ''}`), ...packageArgs],
      env,
      fields,
      launcherOptions: { launcher: 'uvx', identifier: pkg.identifier, from: 0, to: runtimeArgs.length },
    };
  }
  const pinned = /[:@]/.test(pkg.identifier.split('/').pop() ?? '');
  const image = pinned ? pkg.identifier : `${pkg.identifier}:${version ?? ''}`;
  if (!IMAGE.test(image)) throw new Unusable(`"${pkg.identifier}" is not a container image name`);
  // `-e NAME` without a value: docker passes the variable from its own environment, where the host put it.
  const passEnv = env.map<ArgGroup>((e) => ({
    tokens: [lit('-e'), lit(e.name)],
    required: true,
    ifEnv: e.name,
  }));
  return {
    kind: 'stdio',
    command: runtime,
    args: [
      fixed('run'),
      fixed('-i'),
      fixed('--rm'),
      ...runtimeArgs,
      ...passEnv,
      fixed(image),
      ...packageArgs,
    ],
    env,
    fields,
    // `run -i --rm` are the app's own; the entry's options follow.
    launcherOptions: { launcher: 'docker', identifier: image, from: 3, to: 3 + runtimeArgs.length },
  };
}

function remoteOption(remote: RegistryRemote, index: number): EntryOption {
  const label = `Remote server (${remote.type === 'sse' ? 'SSE' : 'Streamable HTTP'})`;
  try {
    const fields: InstallField[] = [];
    const url = urlTemplate(remote.url, remote.variables ?? {}, fields);
    const headers = (remote.headers ?? []).map((input) => keyedValue(input, 'header', fields));
    const recipe: Recipe = { kind: 'remote', url, transport: remote.type, headers, fields };
    return {
      view: { index, kind: 'remote', label, template: templateOf(recipe), fields: [...fields] },
      recipe,
    };
  } catch (error) {
    if (error instanceof Unusable)
      return { view: { index, kind: 'remote', label, problem: error.message, fields: [] } };
    throw error;
  }
}

/** An env variable or header: its fixed value (a template of its variables) or a value to ask for. */
function keyedValue(
  input: RegistryKeyValueInput,
  target: 'env' | 'header',
  fields: InstallField[],
): KeyedValue {
  if (target === 'env') {
    if (!ENV_NAME.test(input.name)) throw new Unusable(`"${input.name}" is not an environment variable name`);
    const why = refusedEnvReason(input.name);
    if (why !== undefined) throw new Unusable(capitalized(refusedEnvMessage(input.name, why)));
  } else if (!HEADER_NAME.test(input.name)) {
    throw new Unusable(`"${input.name}" is not a header name`);
  }
  const id = `${target}:${input.name}`;
  if (input.value !== undefined) {
    const value = valueTemplate(
      input.value,
      input.variables ?? {},
      id,
      target,
      input.isSecret === true,
      fields,
    );
    return {
      name: input.name,
      value,
      required: input.isRequired === true || !value.some((p) => 'field' in p),
    };
  }
  fields.push(fieldOf(id, input.name, input, target, input.isSecret === true));
  return { name: input.name, value: field(id), required: input.isRequired === true };
}

/** One argument: a fixed value (with its variables), a value to ask for, or a flag. */
function argGroup(arg: RegistryArgument, id: string, fields: InstallField[]): ArgGroup {
  const secret = arg.isSecret === true;
  if (arg.type === 'positional') {
    if (arg.value !== undefined) {
      const value = valueTemplate(arg.value, arg.variables ?? {}, id, 'argument', secret, fields);
      return { tokens: [value], required: arg.isRequired === true || !value.some((p) => 'field' in p) };
    }
    fields.push(fieldOf(id, arg.valueHint ?? `argument ${id}`, arg, 'argument', secret));
    return { tokens: [field(id)], required: arg.isRequired === true };
  }
  if (arg.value !== undefined) {
    const value = valueTemplate(arg.value, arg.variables ?? {}, id, 'argument', secret, fields);
    return {
      tokens: [lit(arg.name), value],
      required: arg.isRequired === true || !value.some((p) => 'field' in p),
    };
  }
  const asked = fieldOf(id, arg.name, arg, 'argument', secret);
  fields.push(asked);
  if (asked.format === 'boolean') return { tokens: [lit(arg.name)], required: false, when: id };
  return { tokens: [lit(arg.name), field(id)], required: arg.isRequired === true };
}

/** `value` with its `{name}` placeholders as fields; a placeholder without a variable stays as written (the spec). */
function valueTemplate(
  value: string,
  variables: Readonly<Record<string, RegistryInput>>,
  parent: string,
  target: InstallField['target'],
  secret: boolean,
  fields: InstallField[],
): Template {
  if (HOST_REFERENCE.test(value)) {
    throw new Unusable(
      `A fixed value of the entry ("${value.slice(0, 60)}") would read your own variables or secrets`,
    );
  }
  const pieces: ({ text: string } | { field: string })[] = [];
  let last = 0;
  for (const match of value.matchAll(/\{([A-Za-z_][A-Za-z0-9_-]*)\}/g)) {
    const name = match[1] ?? '';
    const variable = variables[name];
    if (!variable) continue;
    if (match.index > last) pieces.push({ text: value.slice(last, match.index) });
    const id = `${parent}.${name}`;
    if (!fields.some((f) => f.id === id)) {
      fields.push(fieldOf(id, name, variable, target, secret || variable.isSecret === true));
    }
    pieces.push({ field: id });
    last = match.index + match[0].length;
  }
  if (last < value.length) pieces.push({ text: value.slice(last) });
  return pieces;
}

/** A remote's URL with its variables; a secret in a URL cannot be kept out of the configuration file. */
function urlTemplate(
  url: string,
  variables: Readonly<Record<string, RegistryInput>>,
  fields: InstallField[],
): Template {
  const template = valueTemplate(url, variables, 'url', 'url', false, fields);
  if (fields.some((f) => f.target === 'url' && f.secret)) {
    throw new Unusable(
      'It asks for a secret inside its URL, which the app cannot keep encrypted; add it by hand if you accept that',
    );
  }
  const start = template[0];
  const sample = template.map((p) => ('text' in p ? p.text : 'x')).join('');
  const leadingField = start !== undefined && 'field' in start;
  if (!leadingField && !/^https?:\/\/[^\s]+$/.test(sample)) {
    throw new Unusable(`Its address "${url.slice(0, 80)}" is not an http(s) URL`);
  }
  return template;
}

function fieldOf(
  id: string,
  label: string,
  input: RegistryInput,
  target: InstallField['target'],
  secret: boolean,
): InstallField {
  return {
    id,
    label,
    ...(input.description !== undefined ? { description: input.description } : {}),
    target,
    secret,
    required: input.isRequired === true,
    ...(input.default !== undefined && !HOST_REFERENCE.test(input.default) ? { default: input.default } : {}),
    ...(input.placeholder !== undefined ? { placeholder: input.placeholder } : {}),
    ...(input.choices !== undefined && input.choices.length > 0 ? { choices: input.choices } : {}),
    format: input.format ?? 'string',
  };
}

function isText(template: Template, text: string): boolean {
  return (
    template.length === 1 && template[0] !== undefined && 'text' in template[0] && template[0].text === text
  );
}

function registryLabel(type: string): string {
  if (type === 'npm') return 'npm package';
  if (type === 'pypi') return 'PyPI package';
  if (type === 'oci') return 'Container image';
  if (type === 'nuget') return 'NuGet package';
  if (type === 'mcpb') return 'MCP bundle';
  return `${type} package`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function tokenCount(groups: readonly ArgGroup[]): number {
  return groups.reduce((sum, group) => sum + group.tokens.length, 0);
}
