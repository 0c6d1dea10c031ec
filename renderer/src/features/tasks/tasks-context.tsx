import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { TasksState } from './tasks-store.js';

const TasksContext = createContext<StoreApi<TasksState> | null>(null);

/** Makes the tasks store available to the components below. */
export function TasksStoreProvider({
  store,
  children,
}: {
  store: StoreApi<TasksState>;
  children: ReactNode;
}) {
  return <TasksContext.Provider value={store}>{children}</TasksContext.Provider>;
}

/** Reads a slice of the tasks state; selectors must return stable values. */
export function useTasks<T>(selector: (state: TasksState) => T): T {
  const store = useContext(TasksContext);
  if (!store) throw new Error('useTasks must be used inside <TasksStoreProvider>');
  return useStore(store, selector);
}
