/**
 * Loaded into every Node process of a sandboxed server (`--require` through
 * NODE_OPTIONS, set by servers/stdio/sandbox/bwrap-launch.ts). The server's
 * only way out is its proxy (HTTPS_PROXY), but Node's built-in `fetch`
 * ignores the proxy variables before Node 24 (NODE_USE_ENV_PROXY): a server
 * using it would reach no host, even one the person allowed. This routes
 * `fetch` through the proxy, where the host decides per host as for any
 * other connection. It runs in the server's process, not the host's, and
 * costs nothing until the first `fetch`: the proxy agent (undici, next to
 * this file) is loaded then. It never throws: a runtime it cannot help
 * starts as before.
 */
import { join } from 'node:path';

interface AgentModule {
  useProxy(url: string): void;
}

const proxy = process.env.HTTPS_PROXY ?? process.env.https_proxy ?? process.env.HTTP_PROXY;
const original = globalThis.fetch as typeof fetch | undefined;
if (proxy !== undefined && proxy !== '' && typeof original === 'function') {
  let ready = false;
  const proxied = function fetch(this: unknown, ...args: Parameters<typeof original>) {
    if (!ready) {
      ready = true;
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at the first fetch, from beside this file
        (require(join(__dirname, 'node-proxy-agent.cjs')) as AgentModule).useProxy(proxy);
      } catch {
        // An undici this runtime cannot load: fetch stays as it was (and the sandbox refuses it).
      }
    }
    return original.apply(this, args);
  };
  globalThis.fetch = proxied;
}
