import { useRef } from 'react';
import { useAppState, useHostReachable } from '../../store/store-context.js';
import { useBundleInstall } from './bundle-install-context.js';

/**
 * Opens a bundle to install: the host's own file dialog in the desktop app;
 * in the browser (headless shell) the page's file chooser, whose file is
 * uploaded, because the host cannot be handed a path from the page.
 */
export function InstallBundleButton({
  label = 'Install from bundle…',
  className = 'btn',
}: {
  label?: string;
  className?: string;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const reachable = useHostReachable();
  const electron = useAppState((s) => s.appInfo?.shell === 'electron');
  const open = useBundleInstall((s) => s.open);
  return (
    <>
      <button
        type="button"
        className={className}
        disabled={!reachable}
        onClick={() => {
          if (electron) open({ kind: 'pick' });
          else inputRef.current?.click();
        }}
      >
        {label}
      </button>
      <input
        ref={inputRef}
        type="file"
        accept=".mcpb,.dxt"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) open({ kind: 'file', file });
        }}
      />
    </>
  );
}
