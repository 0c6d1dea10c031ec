import { useEffect } from 'react';
import { BundleInstallDialog } from './lazy.js';
import { Deferred } from '../../common/on-demand.js';
import { isBundleFileName } from './bundle-install.js';
import { useBundleInstall } from './bundle-install-context.js';

/**
 * A .mcpb dropped anywhere on the window opens the install dialog (before
 * the composer, which would refuse it as an attachment). Other files keep
 * their own drop targets; dropped anywhere else they do nothing, rather than
 * the browser leaving the app to show the file.
 */
export function BundleDropTarget() {
  const request = useBundleInstall((s) => s.request);
  const open = useBundleInstall((s) => s.open);
  const close = useBundleInstall((s) => s.close);
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
      open({ kind: 'file', file: bundle });
    };
    window.addEventListener('dragover', allow);
    window.addEventListener('drop', takeBundle, true);
    window.addEventListener('drop', allow);
    return () => {
      window.removeEventListener('dragover', allow);
      window.removeEventListener('drop', takeBundle, true);
      window.removeEventListener('drop', allow);
    };
  }, [open]);
  if (!request) return null;
  return (
    <Deferred>
      <BundleInstallDialog
        key={request.id}
        request={request}
        onClose={() => {
          close();
        }}
      />
    </Deferred>
  );
}
