import { APP_PERMISSIONS } from '../../../shared/model/apps.js';
import type { AppPermission } from '../../../shared/model/apps.js';
import { oneLine } from '../errors.js';
import type { AppViews, ViewRecord } from './app-views.js';
import { PROXY_SCRIPT, proxyPage } from './sandbox-proxy.js';

/** What either shell sends back for a request to the sandbox origin. */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Violation reports logged per view; a hostile app could send thousands. */
const MAX_REPORTS_PER_VIEW = 20;
/** Largest report body read. */
export const MAX_REPORT_BYTES = 16 * 1024;

const FEATURE: Record<AppPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

const COMMON = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  // No DNS prefetching from the proxy page (the app's own document gets the same as a meta element).
  'X-DNS-Prefetch-Control': 'off',
};

/**
 * The sandbox origin serves only four things: an empty page, the proxy page of a known
 * view (with that app's CSP and a Permissions-Policy of what the person
 * granted), the proxy's script, and CSP violation reports, which go into the
 * app's server log. Shared by the headless shell's second HTTP server and
 * Electron's `mcp-app:` protocol handler.
 */
export function respondToSandbox(
  views: AppViews,
  request: { method: string; path: string; body?: string | undefined },
): SandboxResponse {
  const location = views.sandboxLocation;
  const [, first, id] = /^\/([a-z.-]+)(?:\/([A-Za-z0-9_-]{22,64}))?$/.exec(request.path) ?? [];
  if (request.method === 'GET' && first === 'proxy.js' && id === undefined) {
    return {
      status: 200,
      headers: { ...COMMON, 'Content-Type': 'text/javascript; charset=utf-8' },
      body: PROXY_SCRIPT,
    };
  }
  // An empty page: the app frame's first document, so the frame is never on the host's origin
  // (a click on the host page would give a same-origin about:blank frame a user activation that
  // the proxy page then inherits).
  if (request.method === 'GET' && first === 'blank' && id === undefined) {
    return {
      status: 200,
      headers: {
        ...COMMON,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': "default-src 'none'",
      },
      body: '<!doctype html><title>App</title>\n',
    };
  }
  const view = id !== undefined ? views.find(id) : undefined;
  if (request.method === 'GET' && first === 'view' && view && location) {
    const ancestors =
      location.hostOrigins.length > 0 ? `; frame-ancestors ${location.hostOrigins.join(' ')}` : '';
    return {
      status: 200,
      headers: {
        ...COMMON,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': view.policy + ancestors,
        'Permissions-Policy': permissionsPolicy(view.granted),
      },
      body: proxyPage(location.hostOrigins),
    };
  }
  if (request.method === 'POST' && first === 'csp-report' && view) {
    logReport(views, view, request.body ?? '');
    return { status: 204, headers: COMMON, body: '' };
  }
  return {
    status: 404,
    headers: { ...COMMON, 'Content-Type': 'text/plain; charset=utf-8' },
    body: 'Not Found\n',
  };
}

/** Only what was granted; every other feature is off for the proxy and the app inside it. */
function permissionsPolicy(granted: ReadonlySet<AppPermission>): string {
  return APP_PERMISSIONS.map((p) => `${FEATURE[p]}=${granted.has(p) ? '*' : '()'}`).join(', ');
}

function logReport(views: AppViews, view: ViewRecord, body: string): void {
  if (view.reportsLogged >= MAX_REPORTS_PER_VIEW) return;
  view.reportsLogged++;
  let directive = 'unknown';
  let blocked = 'unknown';
  try {
    const parsed: unknown = JSON.parse(body.slice(0, MAX_REPORT_BYTES));
    const report = (parsed as { 'csp-report'?: Record<string, unknown> } | null)?.['csp-report'];
    if (report) {
      directive = textOf(report['effective-directive'] ?? report['violated-directive']);
      blocked = textOf(report['blocked-uri']);
    }
  } catch {
    // A malformed report is still worth a line: something was blocked.
  }
  const last =
    view.reportsLogged === MAX_REPORTS_PER_VIEW ? ' (further reports of this view are not logged)' : '';
  views.log(
    view.server,
    view.resourceUri,
    'warning',
    oneLine(`Blocked by the app's Content-Security-Policy: ${directive} ${blocked}${last}`, 500),
  );
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 300) : 'unknown');
