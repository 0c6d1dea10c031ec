import type { Settings } from '../../../shared/model/settings.js';
import type { ChatService } from '../chat/chat-service.js';
import type { DomainHandlers, HostEventSink } from '../ipc/handlers.js';
import type { Persistence } from '../persistence/persistence.js';

/** The settings requests: the Claude key (in, never out), base URL, model, pinned tools, the model list. */
export function settingsHandlers(
  persistence: Persistence,
  chat: ChatService,
  emit: HostEventSink,
): DomainHandlers<'settings'> {
  const changed = (settings: Settings): Settings => {
    emit('settingsChanged', settings);
    return settings;
  };
  const store = () => persistence.settings();
  return {
    getSettings: async () => (await store()).settings(),
    updateSettings: async (patch) => changed(await (await store()).update(patch)),
    setApiKey: async ({ key }) => changed(await (await store()).setApiKey(key)),
    clearApiKey: async () => changed(await (await store()).clearApiKey()),
    listModels: () => chat.listModels(),
    setToolPinned: async ({ server, tool, pinned }) =>
      changed(await (await store()).setToolPinned({ server, tool }, pinned)),
  };
}
