import { useEffect, useState } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { listingOf } from './features-store.js';
import { useFeatureActions, useFeatures } from './features-context.js';
import { LoadingLine, NotOffered } from './states.js';
import { HostErrorLine } from './resource-contents.js';
import { ResourcePanel } from './resource-panel.js';
import { TemplatePanel } from './template-panel.js';

type Selection = { kind: 'resource'; uri: string } | { kind: 'template'; uriTemplate: string } | undefined;

/** Show a filter box once the lists are long enough to need one. */
const FILTER_FROM = 8;

/** A server's resources and templates on the left, the selected one on the right. */
export function ResourcesTab({ server }: { server: ServerSnapshot }) {
  const listing = useFeatures((s) => listingOf(s, server.name));
  const { loadListing, syncConnection } = useFeatureActions();
  const [selection, setSelection] = useState<Selection>();
  const [filter, setFilter] = useState('');
  const connected = server.status === 'connected';
  const offered = server.capabilities.resources;

  // Every snapshot of a connected server may carry a changed catalog (list_changed); the
  // host answers from its cache, so asking again is cheap.
  useEffect(() => {
    if (connected && offered) void loadListing(server.name);
  }, [server, connected, offered, loadListing]);
  // A new connection has no subscriptions.
  useEffect(() => {
    syncConnection(server.name, server.connectedAt);
  }, [server.connectedAt, server.name, syncConnection]);

  if (!connected) return <NotOffered what="Resources" server={server} />;
  if (!offered) return <NotOffered what="Resources" server={server} />;
  const value = listing.value;
  if (!value) {
    return listing.error ? (
      <HostErrorLine error={listing.error} />
    ) : (
      <LoadingLine text="Loading resources…" />
    );
  }
  if (value.resources.length === 0 && value.templates.length === 0) {
    return (
      <div className="tools-empty">
        <h3>Resources</h3>
        <p>This server offers no resources right now.</p>
      </div>
    );
  }

  const needle = filter.trim().toLowerCase();
  const match = (...parts: (string | undefined)[]) =>
    !needle || parts.join(' ').toLowerCase().includes(needle);
  const resources = value.resources.filter((r) => match(r.name, r.title, r.uri));
  const templates = value.templates.filter((t) => match(t.name, t.title, t.uriTemplate));
  const resource =
    selection?.kind === 'resource' ? value.resources.find((r) => r.uri === selection.uri) : undefined;
  const template =
    selection?.kind === 'template'
      ? value.templates.find((t) => t.uriTemplate === selection.uriTemplate)
      : undefined;

  return (
    <div className="tools">
      <div className="tools__sidebar">
        {value.resources.length + value.templates.length >= FILTER_FROM && (
          <input
            type="search"
            className="field__control tools__filter"
            aria-label="Filter resources"
            placeholder="Filter resources"
            value={filter}
            onChange={(event) => {
              setFilter(event.target.value);
            }}
          />
        )}
        <div className="tool-list resource-lists">
          {value.templates.length > 0 && (
            <>
              <div className="tools__heading">
                <h3>Templates</h3>
                <span className="count-badge">{value.templates.length}</span>
              </div>
              <ul className="tool-list" aria-label="Resource templates">
                {templates.map((t) => (
                  <li key={t.uriTemplate}>
                    <button
                      type="button"
                      className="tool-item"
                      aria-current={t === template ? 'true' : undefined}
                      onClick={() => {
                        setSelection({ kind: 'template', uriTemplate: t.uriTemplate });
                      }}
                    >
                      <span className="tool-item__title">{t.title ?? t.name}</span>
                      <span className="tool-item__summary mono">{t.uriTemplate}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
          <div className="tools__heading">
            <h3>Resources</h3>
            <span className="count-badge">{value.resources.length}</span>
          </div>
          <ResourceList
            server={server.name}
            resources={resources}
            selected={resource?.uri}
            onSelect={(uri) => {
              setSelection({ kind: 'resource', uri });
            }}
          />
          {resources.length + templates.length === 0 && (
            <p className="muted tools__none">Nothing matches “{filter}”.</p>
          )}
        </div>
      </div>
      <div className="tools__detail">
        {resource ? (
          <ResourcePanel
            key={resource.uri}
            server={server.name}
            resource={resource}
            connected={connected}
            canSubscribe={value.subscribe}
          />
        ) : template ? (
          <TemplatePanel
            key={template.uriTemplate}
            server={server.name}
            template={template}
            connected={connected}
            canComplete={value.completions}
          />
        ) : (
          <div className="tool-placeholder">
            <p className="tool-placeholder__title">Choose a resource</p>
            <p className="muted">Read it, subscribe to its changes, or attach it to a chat message.</p>
          </div>
        )}
      </div>
    </div>
  );
}

function ResourceList(props: {
  server: string;
  resources: readonly {
    uri: string;
    name: string;
    title?: string | undefined;
    mimeType?: string | undefined;
  }[];
  selected: string | undefined;
  onSelect: (uri: string) => void;
}) {
  const updated = useFeatures((s) => s.updatedAt[props.server]);
  const reads = useFeatures((s) => s.reads[props.server]);
  // Marked while the server's last change is newer than what was read.
  const changed = (uri: string) => {
    const at = updated?.[uri];
    return at !== undefined && at > (reads?.[uri]?.result?.readAt ?? 0);
  };
  return (
    <ul className="tool-list" aria-label="Resources">
      {props.resources.map((r) => (
        <li key={r.uri}>
          <button
            type="button"
            className="tool-item"
            aria-current={r.uri === props.selected ? 'true' : undefined}
            onClick={() => {
              props.onSelect(r.uri);
            }}
          >
            <span className="tool-item__title">
              {r.title ?? r.name}
              {changed(r.uri) && (
                <span className="update-dot" title="Changed on the server" aria-label="changed" />
              )}
            </span>
            <span className="tool-item__summary mono">{r.uri}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
