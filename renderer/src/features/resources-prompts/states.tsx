import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { Spinner } from '../../common/spinner.js';

/** Why a tab (Resources, Prompts) has nothing to show for this server. */
export function NotOffered({ what, server }: { what: string; server: ServerSnapshot }) {
  const lower = what.toLowerCase();
  const text =
    server.status === 'connected'
      ? `This server does not offer ${lower}.`
      : server.status === 'connecting'
        ? `${what} appear here once the server is connected.`
        : server.status === 'disabled'
          ? 'This server is disabled in your configuration file.'
          : `${what} appear here once the server runs. Press Start to connect.`;
  return (
    <div className="tools-empty">
      <h3>{what}</h3>
      <p>{text}</p>
    </div>
  );
}

export function LoadingLine({ text }: { text: string }) {
  return (
    <p className="muted loading-line" role="status">
      <Spinner />
      {text}
    </p>
  );
}
