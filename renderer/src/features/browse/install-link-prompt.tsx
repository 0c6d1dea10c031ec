import { Deferred } from '../../common/on-demand.js';
import { InstallDialog } from './lazy-parts.js';
import { useInstalls } from './install-context.js';
import { useInstalled } from './use-installed.js';

/**
 * An install that came from a link (the OS, or `mcp-host install --link`),
 * over whatever view is open: the same install dialog as Browse, for the
 * install the host holds. Several wait in line, oldest first.
 */
export function InstallLinkPrompt() {
  const first = useInstalls((s) => s.fromLinks[0]);
  const onInstalled = useInstalled();
  if (!first) return null;
  return (
    <Deferred>
      {/* Closing or installing resolves it in the host; the store drops it on installResolved. */}
      <InstallDialog key={first.id} pending={first} onClose={() => undefined} onInstalled={onInstalled} />
    </Deferred>
  );
}
