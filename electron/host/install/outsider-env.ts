/**
 * Environment variables an outsider (install link, registry entry, bundle)
 * may not set: each one changes where a launcher fetches the package from,
 * which program or interpreter really runs, or what a runtime loads before
 * the server's own code. The person sees a trustworthy command line
 * (`npx -y @scope/server`) while the variable decides what it does, so they
 * are refused rather than shown.
 *
 * Names are compared without case: npm and Windows read them so, and a
 * stricter match costs nothing for the rest. Each family says why in the
 * message the person reads.
 */

interface Family {
  /** Whole names or name patterns, matched without case. */
  names: readonly RegExp[];
  why: string;
  /**
   * A search path that only a bundle may set, and only to folders inside
   * itself (`${__dirname}/…`): the bundle's own code runs anyway.
   */
  bundlePath?: true;
}

const exact = (...names: string[]): RegExp[] => names.map((n) => new RegExp(`^${n}$`, 'i'));

const FAMILIES: readonly Family[] = [
  {
    names: [/^npm_config_/i, /^corepack_/i, /^yarn_/i, /^bun_config_/i],
    why: 'npm, npx, corepack, yarn and bun read their settings from it (the registry to fetch from, scripts to run, Node options)',
  },
  {
    names: exact('NODE_OPTIONS', 'NODE_REPL_EXTERNAL_MODULE'),
    why: 'Node.js loads code or options from it before the server starts',
  },
  { names: exact('NODE_PATH'), why: 'Node.js loads modules from the folders it names', bundlePath: true },
  {
    names: [/^uv_/i, /^pip_/i, /^pipx_/i],
    why: 'uv, uvx, pip and pipx read their settings from it (the package index, the interpreter, config files)',
  },
  {
    names: exact('PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONPLATLIBDIR', 'PYTHONBREAKPOINT'),
    why: 'Python loads code from it or from where it points',
  },
  { names: exact('PYTHONPATH'), why: 'Python loads modules from the folders it names', bundlePath: true },
  {
    names: [/^docker_/i, ...exact('CONTAINER_HOST', 'CONTAINERS_CONF', 'CONTAINERS_REGISTRIES_CONF')],
    why: 'docker reads from it which daemon to use and where its configuration and credentials are',
  },
  {
    names: [
      ...exact('BASH_ENV', 'ENV', 'ZDOTDIR', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'PROMPT_COMMAND', 'COMSPEC'),
      /^bash_func_/i,
    ],
    why: 'a shell started by the launcher runs the file or code it names',
  },
  {
    names: exact(
      'JAVA_TOOL_OPTIONS',
      '_JAVA_OPTIONS',
      'JDK_JAVA_OPTIONS',
      'JAVA_HOME',
      'CLASSPATH',
      'MAVEN_OPTS',
      'GRADLE_OPTS',
    ),
    why: 'the Java runtime loads agents, classes or options from it',
  },
  {
    names: [/^ld_/i, /^dyld_/i, ...exact('GCONV_PATH', 'OPENSSL_CONF', 'OPENSSL_ENGINES')],
    why: 'the system loader or a system library loads code from it into every program',
  },
  {
    names: [
      ...exact(
        'GIT_SSH',
        'GIT_SSH_COMMAND',
        'GIT_ASKPASS',
        'SSH_ASKPASS',
        'GIT_EXEC_PATH',
        'GIT_PROXY_COMMAND',
        'GIT_EXTERNAL_DIFF',
        'GIT_PAGER',
        'GIT_EDITOR',
        'GIT_SEQUENCE_EDITOR',
        'GIT_TEMPLATE_DIR',
        'GIT_DIR',
        'GIT_ALLOW_PROTOCOL',
      ),
      /^git_config/i,
    ],
    why: 'git runs the command it names or takes settings from it when a launcher fetches a git source',
  },
  {
    names: exact('RUBYOPT', 'RUBYLIB', 'GEM_HOME', 'GEM_PATH', 'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'PERL5DB'),
    why: 'Ruby or Perl loads code or options from it',
  },
  {
    names: [
      /^(https?|all|ftp)_proxy$/i,
      ...exact('SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE'),
      ...exact('NODE_EXTRA_CA_CERTS', 'NODE_TLS_REJECT_UNAUTHORIZED'),
    ],
    why: 'it sends the launcher’s downloads through another server or changes which certificates it trusts',
  },
  {
    names: exact('PATH', 'PATHEXT', 'HOME', 'USERPROFILE', 'APPDATA', 'XDG_CONFIG_HOME'),
    why: 'it changes which program runs or which configuration files the launcher reads',
  },
  { names: [/^electron_/i], why: 'it changes how the app’s own runtime behaves' },
];

/** Why an outsider may not set `name`, or undefined when it may. */
export function refusedEnvReason(name: string): string | undefined {
  return FAMILIES.find((family) => family.names.some((pattern) => pattern.test(name)))?.why;
}

/**
 * The same for a bundle's manifest: a search path (PYTHONPATH, NODE_PATH)
 * is allowed when every folder in it is inside the bundle (`${__dirname}`),
 * as the MCPB examples for Python do.
 */
export function refusedBundleEnvReason(name: string, value: string): string | undefined {
  const family = FAMILIES.find((f) => f.names.some((pattern) => pattern.test(name)));
  if (!family) return undefined;
  if (family.bundlePath === true) {
    const parts = value.split(/[:;]|\$\{pathSeparator\}/).filter((p) => p !== '');
    const inside = (part: string) =>
      /^\$\{__dirname\}([\\/]|$)/.test(part) && !/(^|[\\/])\.\.([\\/]|$)/.test(part);
    if (parts.length > 0 && parts.every(inside)) return undefined;
  }
  return family.why;
}

/** The one line that names the variable and why it is refused. */
export function refusedEnvMessage(name: string, why: string): string {
  return `it sets ${name}, which changes how programs load or what they fetch (${why}); the app never takes it from an install`;
}
