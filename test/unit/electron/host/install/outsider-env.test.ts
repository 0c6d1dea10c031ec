import { describe, expect, it } from 'vitest';
import {
  refusedBundleEnvReason,
  refusedEnvMessage,
  refusedEnvReason,
} from '../../../../../electron/host/install/outsider-env.js';

/** The env rule for install links, registry entries and bundles (issue 21, finding 3). */
describe('variables an outsider may not set', () => {
  it.each([
    ['npm_config_registry', /npm, npx/],
    ['NPM_CONFIG_REGISTRY', /npm, npx/],
    ['npm_config_node_options', /npm, npx/],
    ['npm_config_userconfig', /npm, npx/],
    ['COREPACK_NPM_REGISTRY', /corepack/],
    ['BUN_CONFIG_REGISTRY', /bun/],
    ['NODE_OPTIONS', /Node\.js loads code/],
    ['node_options', /Node\.js loads code/],
    ['NODE_PATH', /Node\.js loads modules/],
    ['UV_INDEX_URL', /uv, uvx/],
    ['UV_DEFAULT_INDEX', /uv, uvx/],
    ['UV_EXTRA_INDEX_URL', /uv, uvx/],
    ['UV_FIND_LINKS', /uv, uvx/],
    ['PIP_INDEX_URL', /pip/],
    ['PIP_EXTRA_INDEX_URL', /pip/],
    ['PIP_FIND_LINKS', /pip/],
    ['PYTHONPATH', /Python loads modules/],
    ['PYTHONSTARTUP', /Python loads code/],
    ['PYTHONHOME', /Python loads code/],
    ['DOCKER_HOST', /docker/],
    ['DOCKER_CONFIG', /docker/],
    ['BASH_ENV', /shell/],
    ['ENV', /shell/],
    ['BASH_FUNC_ls%%', /shell/],
    ['JAVA_TOOL_OPTIONS', /Java/],
    ['_JAVA_OPTIONS', /Java/],
    ['JDK_JAVA_OPTIONS', /Java/],
    ['LD_PRELOAD', /system loader/],
    ['LD_AUDIT', /system loader/],
    ['DYLD_INSERT_LIBRARIES', /system loader/],
    ['GIT_SSH_COMMAND', /git runs/],
    ['GIT_CONFIG_COUNT', /git runs/],
    ['GIT_ASKPASS', /git runs/],
    ['RUBYOPT', /Ruby or Perl/],
    ['PERL5OPT', /Ruby or Perl/],
    ['HTTPS_PROXY', /another server/],
    ['https_proxy', /another server/],
    ['NODE_EXTRA_CA_CERTS', /certificates/],
    ['PATH', /which program runs/],
    ['HOME', /configuration files/],
    ['ELECTRON_RUN_AS_NODE', /app’s own runtime/],
  ])('%s is refused, saying why', (name, why) => {
    expect(refusedEnvReason(name)).toMatch(why);
  });

  it.each([
    'GITHUB_TOKEN',
    'API_KEY',
    'MEMORY_FILE_PATH',
    'NODE_ENV',
    'LOG_LEVEL',
    'PYTHONUNBUFFERED',
    'GIT_AUTHOR_NAME',
  ])('%s is allowed (and shown with its value)', (name) => {
    expect(refusedEnvReason(name)).toBeUndefined();
  });

  it('one line names the variable and the reason', () => {
    expect(refusedEnvMessage('UV_INDEX_URL', refusedEnvReason('UV_INDEX_URL') ?? '')).toBe(
      'it sets UV_INDEX_URL, which changes how programs load or what they fetch (uv, uvx, pip and pipx read their settings from it (the package index, the interpreter, config files)); the app never takes it from an install',
    );
  });

  it('a bundle may point a search path at its own folder only', () => {
    expect(refusedBundleEnvReason('PYTHONPATH', '${__dirname}/server/lib')).toBeUndefined();
    expect(refusedBundleEnvReason('PYTHONPATH', '${__dirname}/lib:${__dirname}/vendor')).toBeUndefined();
    expect(refusedBundleEnvReason('NODE_PATH', '${__dirname}')).toBeUndefined();
    expect(refusedBundleEnvReason('PYTHONPATH', '${__dirname}/../../outside')).toMatch(/Python/);
    expect(refusedBundleEnvReason('PYTHONPATH', '${__dirname}/lib:/tmp/evil')).toMatch(/Python/);
    expect(refusedBundleEnvReason('PYTHONPATH', '${HOME}/lib')).toMatch(/Python/);
    expect(refusedBundleEnvReason('NODE_OPTIONS', '--require ${__dirname}/x.js')).toMatch(/Node/);
    expect(refusedBundleEnvReason('npm_config_registry', 'https://evil.example/')).toMatch(/npm/);
    expect(refusedBundleEnvReason('ECHO_API_KEY', '${user_config.api_key}')).toBeUndefined();
  });
});
