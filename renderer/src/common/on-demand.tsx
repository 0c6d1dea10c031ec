import { Suspense, lazy } from 'react';
import type { ComponentType, LazyExoticComponent, ReactNode } from 'react';
import { Spinner } from './spinner.js';

/**
 * A component loaded the first time it is drawn, from its own chunk. A row
 * of a feature's lazy.tsx (renderer/src/features/<feature>/) reads like the
 * import it replaces:
 *
 *   export const SettingsView = onDemand(() =>
 *     import('./settings-view.js').then((m) => m.SettingsView));
 *
 * Not for parts that must answer the keyboard the moment they appear (the
 * "/" prompt picker): their first keys would arrive before their chunk.
 */
export function onDemand<P extends object>(
  load: () => Promise<ComponentType<P>>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: await load() }));
}

/** Where an on-demand component is drawn: `fallback` (default nothing) while its chunk loads. */
export function Deferred({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return <Suspense fallback={fallback}>{children}</Suspense>;
}

/** The fallback of a whole view while its chunk loads (a few milliseconds from the local host). */
export function ViewLoading() {
  return (
    <div className="empty-state empty-state--quiet" role="status">
      <Spinner />
      <p>Loading…</p>
    </div>
  );
}
