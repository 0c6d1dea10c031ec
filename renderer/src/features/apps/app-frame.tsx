import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AppPermission, AppToolResult, AppView } from '../../../../shared/model/apps.js';
import type { AppSession } from './bridge/app-session.js';
import { APP_INIT_TIMEOUT_MS } from './bridge/limits.js';
import { currentTheme, hostContext, styleVariables } from './bridge/host-context.js';
import type { DisplayMode } from './bridge/host-context.js';
import { useHost } from '../../store/area-context.js';
import { consentDialogOpen } from '../consent/consent-guard.js';
import { AppToolbar } from './app-toolbar.js';

/** Tallest an app grows inside a tool card; fullscreen uses the window. */
const INLINE_MAX_HEIGHT = 640;
const INITIAL_HEIGHT = 120;
const FEATURE: Record<AppPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

export interface AppFrameProps {
  view: AppView;
  granted: readonly AppPermission[];
  /** The tool's arguments, once known. */
  input: Record<string, unknown> | undefined;
  /** The tool's result, once it has one. */
  result: AppToolResult | undefined;
  /** Why the call was cancelled, when it was. */
  cancelled: string | undefined;
  /** Whether the view belongs to a conversation (ui/message is offered only then). */
  canMessage: boolean;
  /** ui/message: false when the view has no conversation to put a message into. */
  onMessage: (text: string) => boolean;
  /** A one-line note under the frame (timeouts, closed by the app). */
  onNote: (note: string) => void;
  /** The app is gone (closed itself, or never started). */
  onClosed: () => void;
}

/**
 * One live app: the sandbox proxy in an iframe on the apps' own origin
 * (sandbox "allow-scripts allow-same-origin", as the spec asks of the proxy;
 * the app itself runs one frame deeper with "allow-scripts" only), with its
 * AppSession. Fullscreen is a class on the same element, never a move: a
 * moved iframe would reload.
 */
export function AppFrame(props: AppFrameProps) {
  const { view, granted, input, result, cancelled, canMessage } = props;
  const host = useHost();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const boxRef = useRef<HTMLDialogElement>(null);
  const sessionRef = useRef<AppSession | null>(null);
  const [height, setHeight] = useState(INITIAL_HEIGHT);
  const [mode, setMode] = useState<DisplayMode>('inline');
  const [live, setLive] = useState(false);
  const modeRef = useRef(mode);
  const handlers = useRef(props);
  // The session's callbacks read the latest props and mode, not those of its first render.
  useLayoutEffect(() => {
    modeRef.current = mode;
    handlers.current = props;
  });

  // One session per view, started before the proxy loads so its ready notice is heard. The
  // bridge (the ext-apps SDK) is its own chunk, loaded with the first app.
  useLayoutEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    const width = boxRef.current?.clientWidth ?? 600;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Read through a function: TypeScript would narrow a plain flag across the awaits below.
    const life = { disposed: false };
    const gone = () => life.disposed;
    let session: AppSession | undefined;
    const events = {
      onInitialized: () => {
        if (timer !== undefined) clearTimeout(timer);
        setLive(true);
      },
      onSize: ({ height: h }: { height?: number | undefined }) => {
        if (h !== undefined && Number.isFinite(h)) setHeight(Math.max(40, Math.min(Math.ceil(h), 4000)));
      },
      onDisplayMode: (requested: 'inline' | 'fullscreen' | 'pip', gesture: boolean): DisplayMode => {
        const next: DisplayMode = requested === 'fullscreen' ? 'fullscreen' : 'inline';
        // Leaving full screen is always allowed; covering the window needs the person's own click
        // or key press inside the app, and never happens over a consent dialog.
        if (next === 'fullscreen' && modeRef.current !== 'fullscreen') {
          if (!gesture) throw new Error('full screen needs a click or key press inside the app first');
          if (consentDialogOpen()) throw new Error('not while the host is asking the person something');
        }
        modeRef.current = next;
        setMode(next);
        return next;
      },
      onMessage: (text: string) => handlers.current.onMessage(text),
      onRequestClose: () => {
        handlers.current.onNote('The app closed itself.');
        handlers.current.onClosed();
      },
    };
    const context = hostContext({ displayMode: 'inline', width, maxHeight: INLINE_MAX_HEIGHT });
    void import('./bridge/app-session.js')
      .then(async ({ AppSession: Session }) => {
        if (gone()) return;
        const started = new Session(host, view, frame, granted, context, events, canMessage);
        session = started;
        sessionRef.current = started;
        // What arrived while the bridge was loading goes out now (after the app initializes).
        const latest = handlers.current;
        if (latest.input !== undefined) started.sendToolInput(latest.input);
        if (latest.result !== undefined) started.sendToolResult(latest.result);
        if (latest.cancelled !== undefined) started.sendToolCancelled(latest.cancelled);
        await started.start();
        if (gone()) return;
        frame.src = view.proxyUrl;
        timer = setTimeout(() => {
          started.log(
            'warning',
            `The app did not initialize within ${String(APP_INIT_TIMEOUT_MS / 1000)} s; closed`,
          );
          handlers.current.onNote(
            `The app did not start within ${String(APP_INIT_TIMEOUT_MS / 1000)} s and was closed.`,
          );
          handlers.current.onClosed();
        }, APP_INIT_TIMEOUT_MS);
      })
      .catch(() => {
        if (!gone()) {
          handlers.current.onNote('The app could not be started.');
          handlers.current.onClosed();
        }
      });
    return () => {
      life.disposed = true;
      if (timer !== undefined) clearTimeout(timer);
      sessionRef.current = null;
      void session?.close();
    };
    // The session lives as long as the view; later prop changes are sent through it below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view.viewId]);

  useEffect(() => {
    if (input !== undefined) sessionRef.current?.sendToolInput(input);
  }, [input]);
  useEffect(() => {
    if (result !== undefined) sessionRef.current?.sendToolResult(result);
  }, [result]);
  useEffect(() => {
    if (cancelled !== undefined) sessionRef.current?.sendToolCancelled(cancelled);
  }, [cancelled]);

  // Theme, size and display mode follow ours.
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const onTheme = () => {
      sessionRef.current?.setContext({ theme: currentTheme(), styles: { variables: styleVariables() } });
    };
    media.addEventListener('change', onTheme);
    const box = boxRef.current;
    const observer = new ResizeObserver(() => {
      if (!box) return;
      const fullscreen = modeRef.current === 'fullscreen';
      sessionRef.current?.setContext({
        containerDimensions: fullscreen
          ? { width: box.clientWidth, height: box.clientHeight }
          : { width: box.clientWidth, maxHeight: INLINE_MAX_HEIGHT },
      });
    });
    if (box) observer.observe(box);
    return () => {
      media.removeEventListener('change', onTheme);
      observer.disconnect();
    };
  }, []);
  // Full screen is the same <dialog> shown modal: the top layer escapes the chat list's transforms,
  // the rest of the window becomes inert, and the iframe is never moved (a moved iframe reloads).
  // Never shown modal while a consent dialog is open: a later showModal() would stack above it.
  // (A full-screen request is refused while one is open, so this only guards against a path missed.)
  useLayoutEffect(() => {
    const box = boxRef.current;
    const shown: DisplayMode = mode === 'fullscreen' && !consentDialogOpen() ? 'fullscreen' : 'inline';
    sessionRef.current?.setContext({ displayMode: shown });
    if (!box) return;
    if (box.open) box.close();
    if (shown === 'fullscreen') box.showModal();
    else box.show();
  }, [mode]);

  const fullscreen = mode === 'fullscreen';
  return (
    <dialog
      ref={boxRef}
      className={`app-frame${fullscreen ? ' app-frame--fullscreen' : ''}${view.prefersBorder === false ? ' app-frame--borderless' : ''}`}
      // Inline it is a part of the tool card; only full screen is a dialog.
      role={fullscreen ? undefined : 'group'}
      aria-label={fullscreen ? `App of ${view.tool}` : `App ${view.resourceUri}`}
      onCancel={(event) => {
        // Esc leaves full screen; the element stays shown inline.
        event.preventDefault();
        setMode('inline');
      }}
    >
      <AppToolbar
        view={view}
        live={live}
        fullscreen={fullscreen}
        onToggleFullscreen={() => {
          setMode(fullscreen ? 'inline' : 'fullscreen');
        }}
      />
      <iframe
        ref={frameRef}
        // Born on the sandbox origin, never as an about:blank of ours: see the proxy's user activation.
        src={new URL('/blank', view.proxyUrl).href}
        className="app-frame__iframe"
        title={`App ${view.resourceUri} of ${view.server}`}
        sandbox="allow-scripts allow-same-origin"
        allow={granted.map((p) => FEATURE[p]).join('; ')}
        referrerPolicy="no-referrer"
        style={fullscreen ? undefined : { height: Math.min(height, INLINE_MAX_HEIGHT) }}
      />
    </dialog>
  );
}
