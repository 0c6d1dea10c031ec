import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useActions, useAppState } from '../../store/store-context.js';
import { plural } from '../../common/text.js';
import { Tabs } from '../../common/tabs.js';
import type { TabDef } from '../../common/tabs.js';
import { ServerSettings } from '../config/server-settings.js';
import { LogView } from '../logs/lazy.js';
import { Deferred, ViewLoading } from '../../common/on-demand.js';
import { Collapsible } from '../../common/collapsible.js';
import { PromptsTab } from '../resources-prompts/prompts-tab.js';
import { ResourcesTab } from '../resources-prompts/resources-tab.js';
import { RootsTab } from '../resources-prompts/roots-tab.js';
import { ToolsSection } from '../tools/tools-section.js';
import { ServerTrustPanel } from './server-trust-panel.js';
import { ToolChangesPanel } from './tool-changes-panel.js';
import { ServerFacts } from './server-facts.js';
import { SandboxFacts } from './sandbox-facts.js';
import { ServerFailure } from './server-failure.js';
import { ServerHeader } from './server-header.js';
import { SignInPanel } from './sign-in-panel.js';
import { SkillsTab } from './skills-tab.js';
import { RestartNotice } from './restart-notice.js';
import { StartingNotice } from './starting-notice.js';
import { StrayOutputNotice } from './stray-output-notice.js';

/** A tab's count while connected; a second kind ("+ 2 templates") only when there are some. */
function connectedCount(
  server: ServerSnapshot,
  n: number,
  more?: number,
  moreWhat?: string,
): string | undefined {
  if (server.status !== 'connected') return undefined;
  return more !== undefined && more > 0 && moreWhat !== undefined
    ? `${String(n)} + ${plural(more, moreWhat)}`
    : String(n);
}

/** Everything about the selected server: status, what it is, why it failed, then its tabs. */
export function ServerDetail({ name }: { name: string }) {
  const server = useAppState((s) => s.servers[name]);
  const tab = useAppState((s) => s.serverTab) ?? 'tools';
  const { selectServerTab } = useActions();
  if (!server) return null;

  // Each area adds its tab here (one row each).
  const tabs: TabDef[] = [
    {
      id: 'tools',
      label: 'Tools',
      badge: connectedCount(server, server.tools.length),
      render: () => <ToolsSection server={server} />,
    },
    {
      id: 'resources',
      label: 'Resources',
      // Resources and templates counted apart: a template is not a resource you can read as it is.
      badge: server.capabilities.resources
        ? connectedCount(server, server.counts.resources, server.counts.resourceTemplates, 'template')
        : undefined,
      render: () => <ResourcesTab server={server} />,
    },
    {
      id: 'prompts',
      label: 'Prompts',
      badge: server.capabilities.prompts ? connectedCount(server, server.counts.prompts) : undefined,
      render: () => <PromptsTab server={server} />,
    },
    { id: 'skills', label: 'Skills', render: () => <SkillsTab server={server} /> },
    { id: 'roots', label: 'Roots', render: () => <RootsTab server={server} /> },
    {
      id: 'logs',
      label: 'Logs',
      render: () => (
        <Deferred fallback={<ViewLoading />}>
          <LogView server={server} />
        </Deferred>
      ),
    },
    { id: 'settings', label: 'Settings', render: () => <ServerSettings server={server} /> },
  ];

  return (
    <article className="server-detail">
      <div className="card server-card">
        <ServerHeader server={server} />
        <SignInPanel server={server} />
        {server.status === 'failed' && <ServerFailure server={server} />}
        {(server.status === 'restarting' ||
          (server.status === 'connecting' && (server.crashCount ?? 0) > 0)) && (
          <RestartNotice server={server} />
        )}
        {server.status === 'connecting' && (server.crashCount ?? 0) === 0 && (
          <StartingNotice server={server} />
        )}
        {(server.status === 'connected' || server.status === 'failed') && (
          <StrayOutputNotice server={server} />
        )}
        <ServerFacts server={server} />
        <SandboxFacts server={server} />
        <ServerTrustPanel server={server} />
        <ToolChangesPanel server={server} />
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
      <Tabs label={`${server.name} sections`} tabs={tabs} selected={tab} onSelect={selectServerTab} />
    </article>
  );
}
