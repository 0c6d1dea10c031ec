import { useRef } from 'react';
import { useAppState, useHostReachable } from '../../store/store-context.js';
import { bundleInstallStore } from './bundle-install.js';

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
  return (
    <>
      <button
        type="button"
        className={className}
        disabled={!reachable}
        onClick={() => {
          if (electron) bundleInstallStore.getState().open({ kind: 'pick' });
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
          if (file) bundleInstallStore.getState().open({ kind: 'file', file });
        }}
      />
    </>
  );
}
