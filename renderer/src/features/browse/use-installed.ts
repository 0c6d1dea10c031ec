import { useCallback } from 'react';
import { useChatActions } from '../chat/chat-context.js';
import { useActions } from '../../store/store-context.js';

/** After an install: the new server, selected in the Servers view (where it connects, or asks to sign in). */
export function useInstalled(): (name: string) => void {
  const { selectServer } = useActions();
  const { setView } = useChatActions();
  return useCallback(
    (name: string) => {
      selectServer(name);
      setView('servers');
    },
    [selectServer, setView],
  );
}
