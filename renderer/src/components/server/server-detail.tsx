import { useState } from 'react';
import type { ReactNode } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useAppState } from '../../store/store-context.js';
import { Collapsible } from '../common/collapsible.js';
import { Tabs } from '../common/tabs.js';
import { PromptsTab } from '../prompts/prompts-tab.js';
import { ResourcesTab } from '../resources/resources-tab.js';
import { RootsTab } from '../roots/roots-tab.js';
import { ToolsSection } from '../tools/tools-section.js';
import { ServerFacts } from './server-facts.js';
import { ServerFailure } from './server-failure.js';
import { ServerHeader } from './server-header.js';

/** One tab of the server detail. To add a tab, add a row here. */
interface ServerTab {
  id: string;
  label: string;
  count?: (server: ServerSnapshot) => number | undefined;
  render: (server: ServerSnapshot) => ReactNode;
}

const connectedCount = (server: ServerSnapshot, n: number): number | undefined =>
  server.status === 'connected' ? n : undefined;

const TABS: readonly ServerTab[] = [
  {
    id: 'tools',
    label: 'Tools',
    count: (s) => connectedCount(s, s.tools.length),
    render: (s) => <ToolsSection server={s} />,
  },
  {
    id: 'resources',
    label: 'Resources',
    count: (s) =>
      s.capabilities.resources
        ? connectedCount(s, s.counts.resources + (s.counts.resourceTemplates ?? 0))
        : undefined,
    render: (s) => <ResourcesTab server={s} />,
  },
  {
    id: 'prompts',
    label: 'Prompts',
    count: (s) => (s.capabilities.prompts ? connectedCount(s, s.counts.prompts) : undefined),
    render: (s) => <PromptsTab server={s} />,
  },
  { id: 'roots', label: 'Roots', render: (s) => <RootsTab server={s} /> },
];

/** Everything about the selected server: status, what it is, why it failed, then its tabs. */
export function ServerDetail({ name }: { name: string }) {
  const server = useAppState((s) => s.servers[name]);
  const [tab, setTab] = useState('tools');
  if (!server) return null;
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];

  return (
    <article className="server-detail">
      <div className="card server-card">
        <ServerHeader server={server} />
        {server.status === 'failed' && <ServerFailure server={server} />}
        <ServerFacts server={server} />
        {server.instructions !== undefined && server.instructions.trim() !== '' && (
          <Collapsible
            title="Instructions"
            meta="from the server, for the model"
            className="server-card__section"
          >
            <pre className="prose-text">{server.instructions}</pre>
          </Collapsible>
        )}
      </div>
      <Tabs
        label={`${name} features`}
        tabs={TABS.map((t) => ({ id: t.id, label: t.label, count: t.count?.(server) }))}
        selected={tab}
        onSelect={setTab}
      >
        {current?.render(server)}
      </Tabs>
    </article>
  );
}
