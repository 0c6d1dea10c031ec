import { useCallback, useState } from 'react';
import type { PromptInfo } from '../../../../shared/model/server.js';
import type { PromptResult } from '../../../../shared/model/features.js';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { useFeatureActions } from './features-context.js';
import { Spinner } from '../../common/spinner.js';
import { HostErrorLine } from './resource-contents.js';
import { CompletionInput } from './completion-input.js';

/**
 * A prompt's arguments, each with the server's completions when it offers
 * them (the values already filled in are sent as context), and the button
 * that gets the prompt (prompts/get).
 */
export function PromptForm(props: {
  server: string;
  prompt: PromptInfo;
  canComplete: boolean;
  disabled?: boolean | undefined;
  submitLabel: string;
  autoFocus?: boolean | undefined;
  onResult: (result: PromptResult) => void;
}) {
  const { server, prompt, canComplete } = props;
  const args = prompt.arguments ?? [];
  const [values, setValues] = useState<Record<string, string>>({});
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<HostErrorValue | undefined>();
  const { complete, getPrompt } = useFeatureActions();
  const missing = args.filter((a) => a.required === true && (values[a.name] ?? '').trim() === '');

  const completer = useCallback(
    (name: string) => async (value: string) => {
      const context = Object.fromEntries(Object.entries(values).filter(([n, v]) => n !== name && v !== ''));
      const result = await complete(server, { type: 'prompt', name: prompt.name }, { name, value }, context);
      return result.ok ? result.value.values : [];
    },
    [complete, server, prompt.name, values],
  );

  const submit = async () => {
    if (missing.length > 0 || running || props.disabled === true) return;
    setRunning(true);
    setError(undefined);
    const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
    const result = await getPrompt(server, prompt.name, filled);
    setRunning(false);
    if (result.ok) props.onResult(result.value);
    else setError(result.error);
  };

  return (
    <form
      className="template-form"
      aria-label={`Arguments of ${prompt.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {args.length === 0 && <p className="muted">This prompt takes no arguments.</p>}
      {args.map((arg, index) => (
        <CompletionInput
          key={arg.name}
          label={arg.title ?? arg.name}
          description={arg.description}
          required={arg.required === true}
          autoFocus={props.autoFocus === true && index === 0}
          value={values[arg.name] ?? ''}
          onChange={(value) => {
            setValues((v) => ({ ...v, [arg.name]: value }));
          }}
          complete={canComplete && props.disabled !== true ? completer(arg.name) : undefined}
        />
      ))}
      <div className="resource-actions">
        <button
          type="submit"
          className="btn btn--primary"
          disabled={running || missing.length > 0 || props.disabled === true}
          aria-busy={running}
        >
          {running ? (
            <>
              <Spinner />
              Getting…
            </>
          ) : (
            props.submitLabel
          )}
        </button>
        {missing.length > 0 && (
          <span className="field__hint">Fill in {missing.map((a) => a.title ?? a.name).join(', ')}.</span>
        )}
      </div>
      {error && <HostErrorLine error={error} />}
    </form>
  );
}
