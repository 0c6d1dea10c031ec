/**
 * URL-mode elicitation: what a person must see before the host opens a
 * server-supplied URL in the system browser — the full URL, the domain it
 * really goes to (highlighted), and warnings for look-alike (punycode or
 * non-ASCII) host names, credentials in the URL and non-https schemes.
 * Pure: used by the host (to refuse what it will not open) and the renderer
 * (to draw the dialog).
 */

export interface UrlAnalysis {
  /** The URL exactly as the server sent it. */
  readonly raw: string;
  /** False when the URL cannot be parsed or is not http(s): the host never opens it. */
  readonly openable: boolean;
  /** The parsed URL (host in its ASCII form), split so the UI can highlight the domain. */
  readonly parts: { readonly before: string; readonly domain: string; readonly after: string };
  /** The host name as the browser will resolve it (ASCII; `xn--` labels for IDNs). */
  readonly hostname: string;
  /** The host name with punycode labels decoded, as a person would read it. */
  readonly unicodeHostname: string;
  /** The last two labels of the host name (or the whole host for an IP address or a one-label host). */
  readonly domain: string;
  /** True when the host has `xn--` labels or the URL was written with non-ASCII host characters. */
  readonly punycode: boolean;
  readonly warnings: readonly string[];
}

const SCHEME_AUTHORITY = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/;

/** Analyses a server-supplied URL for the URL-elicitation consent dialog. */
export function analyzeUrl(raw: string): UrlAnalysis {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return {
      raw,
      openable: false,
      parts: { before: raw, domain: '', after: '' },
      hostname: '',
      unicodeHostname: '',
      domain: '',
      punycode: false,
      warnings: ['This is not a valid URL; it cannot be opened.'],
    };
  }
  const warnings: string[] = [];
  const web = url.protocol === 'https:' || url.protocol === 'http:';
  if (!web) warnings.push(`Only web links can be opened; this one uses "${url.protocol}".`);
  else if (url.protocol === 'http:') warnings.push('The link is not encrypted (http, not https).');

  const hostname = url.hostname;
  const rawAuthority = SCHEME_AUTHORITY.exec(raw)?.[1] ?? '';
  const nonAsciiInput = /[^\u0020-\u007e]/.test(rawAuthority);
  const labels = hostname.split('.');
  const hasPunycode = labels.some((l) => l.toLowerCase().startsWith('xn--'));
  const unicodeHostname = labels.map(decodeLabel).join('.');
  const punycode = hasPunycode || nonAsciiInput;
  if (punycode) {
    warnings.push(
      `The host name contains international characters ("${unicodeHostname}" is really "${hostname}"); it may imitate another site.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    warnings.push(`The link contains a user name before "@"; the site it opens is ${hostname}.`);
  }

  const domain = registrableDomain(hostname);
  const href = url.href;
  const hasUserInfo = url.username !== '' || url.password !== '';
  const searchFrom = hasUserInfo ? href.indexOf('@', url.protocol.length) + 1 : url.protocol.length;
  const hostStart = href.indexOf(hostname, searchFrom);
  const domainStart = hostStart + hostname.length - domain.length;
  const parts =
    hostStart >= 0 && domain !== ''
      ? {
          before: href.slice(0, domainStart),
          domain: href.slice(domainStart, domainStart + domain.length),
          after: href.slice(domainStart + domain.length),
        }
      : { before: href, domain: '', after: '' };

  return {
    raw,
    openable: web && hostname !== '',
    parts,
    hostname,
    unicodeHostname,
    domain,
    punycode,
    warnings,
  };
}

/**
 * The last two labels of a host name: a simple, documented approximation of
 * the registrable domain (no public-suffix list), good enough to show which
 * site a link belongs to. IP addresses and one-label hosts are returned whole.
 */
export function registrableDomain(hostname: string): string {
  if (hostname.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname)) return hostname;
  const labels = hostname.split('.').filter((l) => l !== '');
  return labels.slice(-2).join('.');
}

function decodeLabel(label: string): string {
  if (!label.toLowerCase().startsWith('xn--')) return label;
  return decodePunycode(label.slice(4)) ?? label;
}

// RFC 3492 bootstring parameters for punycode.
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

function digitOf(code: number): number {
  if (code >= 48 && code <= 57) return code - 22; // 0-9 → 26-35
  if (code >= 65 && code <= 90) return code - 65; // A-Z
  if (code >= 97 && code <= 122) return code - 97; // a-z
  return BASE;
}

/** Decodes the part of a punycode label after `xn--`; undefined when it is malformed. */
export function decodePunycode(input: string): string | undefined {
  const output: number[] = [];
  const lastDelimiter = input.lastIndexOf('-');
  for (let j = 0; j < Math.max(lastDelimiter, 0); j++) {
    const code = input.charCodeAt(j);
    if (code >= 0x80) return undefined;
    output.push(code);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let index = lastDelimiter > 0 ? lastDelimiter + 1 : 0; index < input.length;) {
    const oldI = i;
    let w = 1;
    for (let k = BASE; ; k += BASE) {
      if (index >= input.length) return undefined;
      const digit = digitOf(input.charCodeAt(index++));
      if (digit >= BASE) return undefined;
      i += digit * w;
      if (i > 0x7fffffff) return undefined;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      w *= BASE - t;
    }
    const points = output.length + 1;
    bias = adapt(i - oldI, points, oldI === 0);
    n += Math.floor(i / points);
    i %= points;
    if (n > 0x10ffff) return undefined;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}
