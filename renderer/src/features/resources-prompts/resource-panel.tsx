import { useState } from 'react';
import type { ResourceInfo } from '../../../../shared/model/server.js';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { formatBytes } from '../../common/text.js';
import { readOf } from './features-store.js';
import { useFeatureActions, useFeatures } from './features-context.js';
import { Spinner } from '../../common/spinner.js';
import { AttachButton } from './attach-button.js';
import { HostErrorLine, ResourceContents } from './resource-contents.js';

/** One listed resource: what it is, Read, Subscribe (when offered), Attach to chat, and its contents. */
export function ResourcePanel(props: {
  server: string;
  resource: ResourceInfo;
  connected: boolean;
  canSubscribe: boolean;
}) {
  const { server, resource, connected, canSubscribe } = props;
  const { uri } = resource;
  const read = useFeatures((s) => readOf(s, server, uri));
  const subscribed = useFeatures((s) => (s.subscribed[server] ?? []).includes(uri));
  const updatedAt = useFeatures((s) => s.updatedAt[server]?.[uri]);
  const { read: readResource, setSubscribed } = useFeatureActions();
  const [subscribeError, setSubscribeError] = useState<HostErrorValue | undefined>();
  const [toggling, setToggling] = useState(false);
  const label = resource.title ?? resource.name;
  const changedSinceRead =
    updatedAt !== undefined && (read.result === undefined || updatedAt > read.result.readAt);

  const doRead = () => {
    // read() never rejects; its outcome is stored and shown below.
    void readResource(server, uri, { uri });
  };
  const toggleSubscription = async () => {
    setToggling(true);
    setSubscribeError(await setSubscribed(server, uri, !subscribed));
    setToggling(false);
  };

  return (
    <div className="card tool-panel">
      <header className="tool-panel__header">
        <h3 className="tool-panel__heading">
          <span>{label}</span>
          {resource.title !== undefined && <span className="tool-panel__title mono">{resource.name}</span>}
        </h3>
        <div className="resource-meta">
          {subscribed && <span className="badge badge--info">Live: subscribed</span>}
          {resource.mimeType !== undefined && <span className="tag">{resource.mimeType}</span>}
          {resource.size !== undefined && <span className="tag">{formatBytes(resource.size)}</span>}
        </div>
      </header>
      <code className="resource-card__uri">{uri}</code>
      {resource.description !== undefined && (
        <p className="tool-panel__description">{resource.description}</p>
      )}
      <div className="resource-actions">
        <button
          type="button"
          className="btn btn--primary"
          disabled={!connected || read.loading}
          aria-busy={read.loading}
          onClick={doRead}
        >
          {read.loading ? (
            <>
              <Spinner />
              Reading…
            </>
          ) : read.result ? (
            'Read again'
          ) : (
            'Read'
          )}
        </button>
        {canSubscribe && (
          <button
            type="button"
            className="btn"
            disabled={!connected || toggling}
            onClick={() => {
              void toggleSubscription();
            }}
          >
            {subscribed ? 'Unsubscribe' : 'Subscribe to updates'}
          </button>
        )}
        <AttachButton server={server} uri={uri} label={label} mimeType={resource.mimeType} />
      </div>
      {updatedAt !== undefined && (
        <div className={`update-note${changedSinceRead ? ' update-note--fresh' : ''}`} role="status">
          <span className="update-note__dot" aria-hidden="true" />
          {changedSinceRead ? 'Changed on the server at ' : 'Last change on the server at '}
          {new Date(updatedAt).toLocaleTimeString()}
          {changedSinceRead && (
            <button type="button" className="btn update-note__btn" disabled={!connected} onClick={doRead}>
              Re-read
            </button>
          )}
        </div>
      )}
      {subscribeError && <HostErrorLine error={subscribeError} />}
      {read.error && <HostErrorLine error={read.error} />}
      {read.result && <ResourceContents result={read.result} />}
    </div>
  );
}
