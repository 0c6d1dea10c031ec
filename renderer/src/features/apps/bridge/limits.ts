/** How long a view may take from its proxy loading to ui/notifications/initialized. */
export const APP_INIT_TIMEOUT_MS = 15_000;
