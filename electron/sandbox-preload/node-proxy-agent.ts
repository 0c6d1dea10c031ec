/** The proxy agent node-proxy.ts loads at a sandboxed server's first `fetch`. */
import { ProxyAgent, setGlobalDispatcher } from 'undici';

export function useProxy(url: string): void {
  setGlobalDispatcher(new ProxyAgent(url));
}
