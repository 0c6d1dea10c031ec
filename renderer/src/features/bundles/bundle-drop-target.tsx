import { useEffect } from 'react';
import { BundleInstallDialog } from './lazy.js';
import { Deferred } from '../../common/on-demand.js';
import { bundleInstallStore, isBundleFileName, useBundleInstall } from './bundle-install.js';

/**
 * A .mcpb dropped anywhere on the window opens the install dialog (before
 * the composer, which would refuse it as an attachment). Other files keep
 * their own drop targets; dropped anywhere else they do nothing, rather than
 * the browser leaving the app to show the file.
 */
export function BundleDropTarget() {
  const request = useBundleInstall((s) => s.request);
  useEffect(() => {
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
    const allow = (event: DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    const takeBundle = (event: DragEvent) => {
      const bundle = Array.from(event.dataTransfer?.files ?? []).find((file) => isBundleFileName(file.name));
      if (!bundle) return;
      event.preventDefault();
      event.stopPropagation();
      bundleInstallStore.getState().open({ kind: 'file', file: bundle });
    };
    window.addEventListener('dragover', allow);
    window.addEventListener('drop', takeBundle, true);
    window.addEventListener('drop', allow);
    return () => {
      window.removeEventListener('dragover', allow);
      window.removeEventListener('drop', takeBundle, true);
      window.removeEventListener('drop', allow);
    };
  }, []);
  if (!request) return null;
  return (
    <Deferred>
      <BundleInstallDialog
        key={request.id}
        request={request}
        onClose={() => {
          bundleInstallStore.getState().close();
        }}
      />
    </Deferred>
  );
}
