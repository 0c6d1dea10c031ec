import { useEffect, useState } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import type { PromptResult } from '../../../../shared/model/features.js';
import { firstLine } from '../../common/text.js';
import { useFeatureActions, useFeatures } from './features-context.js';
import { HostErrorLine } from './resource-contents.js';
import { LoadingLine, NotOffered } from './states.js';
import { PromptForm } from './prompt-form.js';
import { PromptMessages } from './prompt-messages.js';

/** A server's prompts on the left; the selected one's arguments and result on the right. */
export function PromptsTab({ server }: { server: ServerSnapshot }) {
  const prompts = useFeatures((s) => s.prompts);
  const { loadPrompts } = useFeatureActions();
  const [selected, setSelected] = useState<string>();
  const [result, setResult] = useState<PromptResult>();
  const connected = server.status === 'connected';
  const offered = server.capabilities.prompts;

  useEffect(() => {
    if (connected && offered) void loadPrompts();
  }, [server, connected, offered, loadPrompts]);

  if (!connected || !offered) return <NotOffered what="Prompts" server={server} />;
  const mine = prompts.value?.find((p) => p.server === server.name);
  if (!mine) {
    if (prompts.error) return <HostErrorLine error={prompts.error} />;
    return prompts.loading || !prompts.value ? (
      <LoadingLine text="Loading prompts…" />
    ) : (
      <NotOffered what="Prompts" server={server} />
    );
  }
  if (mine.prompts.length === 0) {
    return (
      <div className="tools-empty">
        <h3>Prompts</h3>
        <p>This server offers no prompts right now.</p>
      </div>
    );
  }
  const prompt = mine.prompts.find((p) => p.name === selected);

  return (
    <div className="tools">
      <div className="tools__sidebar">
        <div className="tools__heading">
          <h3>Prompts</h3>
          <span className="count-badge">{mine.prompts.length}</span>
        </div>
        <ul className="tool-list" aria-label="Prompts">
          {mine.prompts.map((p) => (
            <li key={p.name}>
              <button
                type="button"
                className="tool-item"
                aria-current={p.name === selected ? 'true' : undefined}
                onClick={() => {
                  setSelected(p.name);
                  setResult(undefined);
                }}
              >
                <span className="tool-item__name mono">{p.name}</span>
                {p.title !== undefined && <span className="tool-item__title">{p.title}</span>}
                {firstLine(p.description) !== '' && (
                  <span className="tool-item__summary clamp-2">{firstLine(p.description)}</span>
                )}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div className="tools__detail">
        {prompt ? (
          <div className="card tool-panel" key={prompt.name}>
            <header className="tool-panel__header">
              <h3 className="tool-panel__heading">
                <span className="mono">{prompt.name}</span>
                {prompt.title !== undefined && <span className="tool-panel__title">{prompt.title}</span>}
              </h3>
            </header>
            {prompt.description !== undefined && (
              <p className="tool-panel__description">{prompt.description}</p>
            )}
            <PromptForm
              key={prompt.name}
              server={server.name}
              prompt={prompt}
              canComplete={mine.completions}
              submitLabel="Get prompt"
              onResult={setResult}
            />
            {result && <PromptMessages result={result} />}
          </div>
        ) : (
          <div className="tool-placeholder">
            <p className="tool-placeholder__title">Choose a prompt</p>
            <p className="muted">Fill in its arguments and see the messages it produces.</p>
          </div>
        )}
      </div>
    </div>
  );
}
