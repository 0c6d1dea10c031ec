import type { EntryKind } from '../../../../shared/model/registry.js';

const LABELS: Record<EntryKind, string> = {
  npm: 'npm',
  pypi: 'PyPI',
  oci: 'Container',
  remote: 'Remote',
  other: 'Other',
};

/** How an entry runs: on this machine (npm, PyPI, container) or remotely. */
export function KindBadge({ kind }: { kind: EntryKind }) {
  const local = kind === 'npm' || kind === 'pypi' || kind === 'oci';
  return (
    <span
      className={`badge ${kind === 'remote' ? 'badge--info' : 'badge--neutral'}`}
      title={local ? 'Runs on this machine' : kind === 'remote' ? 'Runs remotely' : undefined}
    >
      {local ? `Local · ${LABELS[kind]}` : LABELS[kind]}
    </span>
  );
}
