import { useState } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useAppState } from '../../store/store-context.js';
import { ToolList } from './tool-list.js';
import { ToolPanel } from './tool-panel.js';

/** Show a filter box once the list is long enough to need one. */
const FILTER_FROM = 8;

/** The server's tools on the left and the selected tool, ready to call, on the right. */
export function ToolsSection({ server }: { server: ServerSnapshot }) {
  const selectedTool = useAppState((s) => s.selectedTool);
  const [filter, setFilter] = useState('');
  const tool = server.tools.find((t) => t.name === selectedTool);

  if (server.tools.length === 0) {
    return (
      <div className="tools-empty">
        <h3>Tools</h3>
        <p>{emptyMessage(server)}</p>
      </div>
    );
  }

  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? server.tools.filter((t) => `${t.name} ${t.title ?? ''}`.toLowerCase().includes(needle))
    : server.tools;

  return (
    <div className="tools">
      <div className="tools__sidebar">
        <div className="tools__heading">
          <h3>Tools</h3>
          <span className="count-badge">{server.tools.length.toLocaleString('en-US')}</span>
        </div>
        {server.toolsCapped && (
          <p className="tools__capped" role="note">
            This server lists {server.toolsCapped.listed.toLocaleString('en-US')} tools. Only the first{' '}
            {server.toolsCapped.kept.toLocaleString('en-US')} are kept and offered to Claude.
          </p>
        )}
        {server.tools.length >= FILTER_FROM && (
          <input
            type="search"
            className="field__control tools__filter"
            aria-label="Filter tools"
            placeholder="Filter tools"
            value={filter}
            onChange={(event) => {
              setFilter(event.target.value);
            }}
          />
        )}
        <ToolList tools={shown} selected={tool?.name} server={server.name} />
        {shown.length === 0 && <p className="muted tools__none">No tool matches “{filter}”.</p>}
      </div>
      <div className="tools__detail">
        {tool ? (
          <ToolPanel server={server} tool={tool} />
        ) : (
          <div className="tool-placeholder">
            <p className="tool-placeholder__title">Choose a tool</p>
            <p className="muted">See what it does, fill in its arguments and call it.</p>
          </div>
        )}
      </div>
    </div>
  );
}

function emptyMessage(server: ServerSnapshot): string {
  switch (server.status) {
    case 'connected':
      return server.capabilities.tools
        ? 'This server offers no tools right now.'
        : 'This server does not offer tools.';
    case 'connecting':
      return 'Tools appear here once the server is connected.';
    case 'restarting':
      return 'The server crashed and is being restarted; its tools appear here once it is back.';
    case 'failed':
      return 'Tools appear here once the server runs. Fix the problem above, then press Restart.';
    case 'sign-in-required':
      return 'Sign in to this server to see its tools.';
    case 'stopped':
      return 'This server is stopped. Press Start to connect and list its tools.';
    case 'disabled':
      return 'This server is disabled in your configuration file.';
  }
}
