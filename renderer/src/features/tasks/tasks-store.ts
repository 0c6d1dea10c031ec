import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { HostApi } from '../../../../shared/ipc/host-api.js';
import type { Result } from '../../../../shared/ipc/result.js';
import { taskKey } from '../../../../shared/model/task-state.js';
import type { TaskInfo } from '../../../../shared/model/tasks.js';
import { loadOnEveryConnect } from '../../bridge/connection.js';
import type { HostConnection } from '../../bridge/connection.js';

export interface TasksState {
  /** Every running and recent task the host knows, by server and task id. */
  readonly tasks: Readonly<Record<string, TaskInfo>>;
  readonly actions: {
    cancel: (server: string, taskId: string) => Promise<Result<TaskInfo>>;
  };
}

/** Newest first. */
export function sortedTasks(tasks: Readonly<Record<string, TaskInfo>>): TaskInfo[] {
  return Object.values(tasks).sort((a, b) => b.startedAt - a.startedAt);
}

/**
 * The tasks servers run for the host: filled from listTasks on every
 * (re)connect, then kept by tasksChanged events (the host batches them).
 */
export function createTasksStore(
  host: HostApi,
  connection: HostConnection,
): { store: StoreApi<TasksState>; dispose: () => void } {
  const store = createStore<TasksState>()(() => ({
    tasks: {},
    actions: {
      cancel: async (server, taskId) => {
        const result = await host.cancelTask({ server, taskId });
        if (result.ok) upsert([result.value]);
        return result;
      },
    },
  }));
  const upsert = (changed: readonly TaskInfo[]): void => {
    store.setState((s) => ({
      tasks: { ...s.tasks, ...Object.fromEntries(changed.map((task) => [taskKey(task), task])) },
    }));
  };
  const unsubscribes = [
    host.on('tasksChanged', upsert),
    loadOnEveryConnect(connection, async () => {
      const result = await host.listTasks({});
      if (result.ok) store.setState({ tasks: Object.fromEntries(result.value.map((t) => [taskKey(t), t])) });
    }),
  ];
  return {
    store,
    dispose() {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
