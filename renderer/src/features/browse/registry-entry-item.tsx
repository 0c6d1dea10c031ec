import type { RegistryEntry } from '../../../../shared/model/registry.js';
import { safeLinkUrl } from '../../common/safe-url.js';
import { ServerText } from '../../common/server-text.js';
import { Spinner } from '../../common/spinner.js';
import { KindBadge } from './kind-badge.js';

interface RegistryEntryItemProps {
  entry: RegistryEntry;
  opening: boolean;
  onOpen: () => void;
}

/**
 * One search result: title, name, version, how it runs, description and
 * repository. The registry's text is shown with hidden characters spelled
 * out; links are http(s) only and open outside the app.
 */
export function RegistryEntryItem({ entry, opening, onOpen }: RegistryEntryItemProps) {
  const repository = entry.repositoryUrl !== undefined ? safeLinkUrl(entry.repositoryUrl) : '';
  return (
    <li className="registry-entry">
      <div className="registry-entry__main">
        <div className="registry-entry__heading">
          <h2 className="registry-entry__title">
            <ServerText text={entry.title ?? entry.name} />
          </h2>
          <span className="registry-entry__version mono">{entry.version}</span>
          {entry.kinds.map((kind) => (
            <KindBadge key={kind} kind={kind} />
          ))}
          {entry.status === 'deprecated' && <span className="badge badge--danger">Deprecated</span>}
        </div>
        {entry.title !== undefined && (
          <p className="registry-entry__name mono">
            <ServerText text={entry.name} />
          </p>
        )}
        <p className="registry-entry__description">
          <ServerText text={entry.description} />
        </p>
        {repository !== '' && (
          <a className="registry-entry__link" href={repository} target="_blank" rel="noopener noreferrer">
            Repository<span className="visually-hidden"> of {entry.name}</span>
            <span className="registry-entry__host"> · {new URL(repository).host}</span>
          </a>
        )}
      </div>
      <button
        type="button"
        className="btn"
        onClick={onOpen}
        disabled={opening}
        aria-label={`Install ${entry.title ?? entry.name}…`}
      >
        {opening && <Spinner />}
        Install…
      </button>
    </li>
  );
}
