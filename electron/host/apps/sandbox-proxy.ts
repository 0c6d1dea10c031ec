/**
 * The sandbox proxy: the page that runs on the apps' own origin between the
 * host's window and an app (spec "Sandbox proxy"). It announces itself with
 * `ui/notifications/sandbox-proxy-ready`, takes the app's HTML once from
 * `ui/notifications/sandbox-resource-ready`, loads it into an inner frame
 * sandboxed with `allow-scripts` only (an opaque origin: no storage, no
 * cookies, no access to this page or the host), and then relays messages
 * both ways, except the reserved `ui/notifications/sandbox-*` ones. It
 * creates two messages of its own: the ready notice, and, just before it
 * relays an app's `ui/request-display-mode`, a reserved
 * `ui/notifications/sandbox-user-activation` saying whether the person has
 * just pressed or typed inside the app's frame: this page has a transient
 * `navigator.userActivation` that it did not already have when it or the
 * app's frame was created, and the keyboard focus is in the app's frame (see
 * `inApp` in the script for why the activation alone is not enough). The app
 * cannot set either, nor send a reserved message itself.
 *
 * The app's document is built here: before the app's own markup come a
 * `<meta http-equiv="x-dns-prefetch-control" content="off">` (which the app
 * cannot turn back on) and a script that removes the WebRTC constructors, so
 * `connect-src` is not sidestepped through ICE (STUN/TURN) traffic.
 *
 * The page is served with the app's own Content-Security-Policy; the inner
 * `srcdoc` frame inherits it, and its `frame-src` also stops the app from
 * navigating its frame anywhere undeclared.
 */

/** The proxy's script, served as /proxy.js from the sandbox origin. */
export const PROXY_SCRIPT = `(() => {
  'use strict';
  // The host window's origins (none: a file:// window, reached with '*'); the actual parent is one of them.
  const allowed = (document.documentElement.dataset.hostOrigins || '').split(' ').filter(Boolean);
  const parentOrigin = (location.ancestorOrigins && location.ancestorOrigins[0]) || '';
  const hostOrigin = allowed.length === 0 ? '*' : allowed.includes(parentOrigin) ? parentOrigin : allowed[0];
  const RESERVED = 'ui/notifications/sandbox-';
  const FEATURES = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  let inner = null;
  const reserved = (data) =>
    data !== null && typeof data === 'object' && typeof data.method === 'string' && data.method.startsWith(RESERVED);
  const toHost = (data) => { window.parent.postMessage(data, hostOrigin); };
  // Runs before any script of the app: no WebRTC (ICE would reach any host, whatever connect-src says).
  const GUARD = '<meta http-equiv="x-dns-prefetch-control" content="off"><script>(() => {' +
    "for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCIceTransport', 'RTCDtlsTransport', 'RTCSctpTransport']) {" +
    ' try { delete window[name]; } catch (e) {} try { Object.defineProperty(window, name, { value: undefined, configurable: false, writable: false }); } catch (e) {} }' +
    '})();<' + '/script>';
  // After a leading doctype (before it, the page would fall into quirks mode), else first.
  const guarded = (html) => {
    const doctype = /^(\\uFEFF|\\s|<!--[\\s\\S]*?-->)*<!doctype[^>]*>/i.exec(html);
    const at = doctype === null ? 0 : doctype[0].length;
    return html.slice(0, at) + GUARD + html.slice(at);
  };
  // An activation this page already has when it loads, or when the app's frame is created, came
  // from before the app was there (the frame may start as about:blank on the host's origin, and a
  // click on the host page then leaves an activation this page inherits). It counts once it has lapsed.
  const userActivation = navigator.userActivation;
  const activeNow = () => userActivation !== undefined && userActivation.isActive === true;
  let inherited = false;
  let lapse = null;
  const markInherited = () => {
    if (!activeNow()) return;
    inherited = true;
    if (lapse === null) {
      lapse = setInterval(() => { if (!activeNow()) { inherited = false; clearInterval(lapse); lapse = null; } }, 100);
    }
  };
  markInherited();
  // The activation alone does not say where the press was: Chromium also activates this page for
  // a press on this page itself, for a press on another app's proxy page (the same sandbox origin:
  // same-origin visibility), and for script a debugger or automation runs with a user gesture
  // (Playwright does, in this page, when the app's frame appears). A press inside the app's frame
  // also leaves the focus there, and a key press happens where the focus is: this page has the
  // focus and its active element is the app's frame. A press anywhere else takes the focus away.
  // The app can pull the focus into its frame, but that gives no activation.
  const inApp = () => inner !== null && document.hasFocus() && document.activeElement === inner;
  const activation = () =>
    ({ jsonrpc: '2.0', method: RESERVED + 'user-activation', params: { active: !inherited && activeNow() && inApp() } });
  function load(params) {
    if (inner !== null || params === null || typeof params !== 'object' || typeof params.html !== 'string') return;
    inner = document.createElement('iframe');
    inner.setAttribute('sandbox', 'allow-scripts');
    inner.setAttribute('referrerpolicy', 'no-referrer');
    inner.setAttribute('title', 'App');
    const granted = params.permissions !== null && typeof params.permissions === 'object' ? params.permissions : {};
    const allow = Object.keys(FEATURES).filter((k) => granted[k] !== undefined).map((k) => FEATURES[k]);
    if (allow.length > 0) inner.setAttribute('allow', allow.join('; '));
    inner.srcdoc = guarded(params.html);
    markInherited();
    document.body.appendChild(inner);
  }
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === window.parent) {
      if (allowed.length > 0 && !allowed.includes(event.origin)) return;
      if (reserved(data)) {
        if (data.method === RESERVED + 'resource-ready') load(data.params);
        return;
      }
      if (inner !== null && inner.contentWindow !== null) inner.contentWindow.postMessage(data, '*');
      return;
    }
    if (inner !== null && event.source === inner.contentWindow && !reserved(data)) {
      if (data !== null && typeof data === 'object' && data.method === 'ui/request-display-mode') toHost(activation());
      toHost(data);
    }
  });
  toHost({ jsonrpc: '2.0', method: RESERVED + 'proxy-ready', params: {} });
})();
`;

/** The proxy page; `hostOrigins` are the only origins it talks to (none: '*', for a file:// window). */
export function proxyPage(hostOrigins: readonly string[]): string {
  const attr = hostOrigins.map((o) => o.replace(/[^A-Za-z0-9:/.[\]-]/g, '')).join(' ');
  return `<!doctype html>
<html data-host-origins="${attr}">
<head><meta charset="utf-8"><title>App sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{display:block;border:0;width:100%;height:100%}</style>
</head>
<body><script src="/proxy.js"></script></body>
</html>
`;
}
