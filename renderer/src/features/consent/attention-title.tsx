import { useEffect, useRef, useState } from 'react';
import { useConsent } from './consent-context.js';

/** Whether the person is looking at this window: it has the focus and is not hidden. */
function useWindowAttention(): boolean {
  const [attending, setAttending] = useState(
    () => document.visibilityState === 'visible' && document.hasFocus(),
  );
  useEffect(() => {
    const onFocus = (): void => {
      setAttending(document.visibilityState === 'visible');
    };
    const onBlur = (): void => {
      setAttending(false);
    };
    const onVisibility = (): void => {
      setAttending(document.visibilityState === 'visible' && document.hasFocus());
    };
    window.addEventListener('focus', onFocus);
    window.addEventListener('blur', onBlur);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('blur', onBlur);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);
  return attending;
}

/**
 * While decisions wait and the window is not in front, the page title says
 * so ("(2) Approval needed · MCP Host"), which shows in the browser tab and
 * the task bar. The headless shell has no notifications of its own; the
 * Electron shell also raises a system notification from the host.
 */
export function AttentionTitle() {
  const waiting = useConsent((s) => s.pending.length);
  const attending = useWindowAttention();
  const base = useRef(document.title);
  useEffect(() => {
    const title = base.current;
    document.title = waiting > 0 && !attending ? `(${String(waiting)}) Approval needed · ${title}` : title;
  }, [waiting, attending]);
  useEffect(() => {
    const title = base.current;
    return () => {
      document.title = title;
    };
  }, []);
  return null;
}
