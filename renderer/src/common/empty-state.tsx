/** The first thing a new user sees: what a server is and how to add one. */
export function EmptyState({ onAddServer }: { onAddServer: () => void }) {
  return (
    <div className="empty-state">
      <div className="empty-state__art" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <h2>No servers yet</h2>
      <p>
        MCP servers give the assistant tools, resources and prompts: a file system, a database, a search
        engine. Add one to see what it offers and try its tools.
      </p>
      <button type="button" className="btn btn--primary btn--lg" onClick={onAddServer}>
        Add your first server
      </button>
      <p className="empty-state__note">
        Servers you add are saved in your configuration file, in the same <code>mcpServers</code> format as
        Claude Desktop, Cursor and VS Code.
      </p>
    </div>
  );
}
