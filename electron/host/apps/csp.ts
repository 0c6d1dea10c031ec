import type { AppCsp } from '../../../shared/model/apps.js';

/**
 * The Content-Security-Policy of an MCP App, built from the origins its
 * resource declared in `_meta.ui.csp` on top of the spec's restrictive
 * default. Only well-formed origins are accepted; anything else (wildcards,
 * keywords, other schemes, the host's own origins, characters that would end
 * a directive) is refused and reported, never passed through, so the policy
 * is never looser than declared.
 */
export interface AppCspResult {
  /** The header value. */
  policy: string;
  /** The declared origins that were accepted, per directive (what the app is told it got). */
  accepted: AppCsp;
  /** One line per refused entry. */
  refused: string[];
}

export interface AppCspOptions {
  /** Where the browser sends violation reports (the sandbox server), if anywhere. */
  reportUri?: string | undefined;
  /** Origins an app may never name (the host's own pages and its sandbox). */
  forbiddenOrigins?: readonly string[] | undefined;
}

const DIRECTIVE_OF: Record<keyof AppCsp, string> = {
  connectDomains: 'connect',
  resourceDomains: 'resource',
  frameDomains: 'frame',
  baseUriDomains: 'base-uri',
};

/**
 * scheme://host[:port][/path]: a host may start with one `*.` label; no
 * quotes, spaces, commas or semicolons anywhere (they would change the policy).
 */
const SOURCE =
  /^(https|wss|http|ws):\/\/(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:(\d{1,5}))?(\/[A-Za-z0-9._~!$&()*+=:@%/-]*)?$/i;

/** Checks one declared origin; returns the reason it is refused, or null. */
export function refusalOf(entry: string, forbidden: readonly string[] = []): string | null {
  const match = SOURCE.exec(entry);
  if (!match) return 'not an origin of the form https://host[:port]';
  const port = match[8];
  if (port !== undefined && Number(port) > 65535) return 'port out of range';
  const origin = entry.replace(/^([a-z]+:\/\/[^/]+).*$/i, '$1').toLowerCase();
  if (forbidden.some((f) => f.toLowerCase() === origin)) return "names the host's own origin";
  return null;
}

/** Builds the policy for one app; `declared` is `_meta.ui.csp` as parsed, or undefined. */
export function buildAppCsp(declared: AppCsp | undefined, options: AppCspOptions = {}): AppCspResult {
  const refused: string[] = [];
  const accepted: AppCsp = {};
  for (const key of Object.keys(DIRECTIVE_OF) as (keyof AppCsp)[]) {
    const list = declared?.[key];
    if (list === undefined) continue;
    const kept: string[] = [];
    for (const entry of list) {
      const why = refusalOf(entry, options.forbiddenOrigins);
      if (why === null) {
        if (!kept.includes(entry)) kept.push(entry);
      } else {
        refused.push(`${DIRECTIVE_OF[key]}: "${entry.slice(0, 120)}" refused (${why})`);
      }
    }
    accepted[key] = kept;
  }
  const res = (accepted.resourceDomains ?? []).join(' ');
  const withRes = (base: string) => (res === '' ? base : `${base} ${res}`);
  const listOr = (list: string[] | undefined, fallback: string) =>
    list !== undefined && list.length > 0 ? list.join(' ') : fallback;
  const directives = [
    "default-src 'none'",
    `script-src ${withRes("'self' 'unsafe-inline'")}`,
    `style-src ${withRes("'self' 'unsafe-inline'")}`,
    `img-src ${withRes("'self' data:")}`,
    `font-src ${withRes("'self'")}`,
    `media-src ${withRes("'self' data:")}`,
    `connect-src ${listOr(accepted.connectDomains, "'none'")}`,
    `frame-src ${listOr(accepted.frameDomains, "'none'")}`,
    "object-src 'none'",
    `base-uri ${listOr(accepted.baseUriDomains, "'self'")}`,
    "form-action 'none'",
    ...(options.reportUri !== undefined ? [`report-uri ${options.reportUri}`] : []),
  ];
  return { policy: directives.join('; '), accepted, refused };
}
