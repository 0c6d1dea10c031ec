import type { McpUiHostContext, McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';

/** Display modes this host offers: in the tool card, or over the whole window. */
export const DISPLAY_MODES = ['inline', 'fullscreen'] as const;
export type DisplayMode = (typeof DISPLAY_MODES)[number];

/** Our design tokens (styles/tokens.css) behind each of the spec's style variables. */
const TOKEN_OF: Partial<Record<keyof McpUiStyles, string>> = {
  '--color-background-primary': '--bg-surface',
  '--color-background-secondary': '--bg-subtle',
  '--color-background-tertiary': '--bg-app',
  '--color-background-inverse': '--text',
  '--color-background-info': '--accent-soft',
  '--color-background-danger': '--red-soft',
  '--color-background-success': '--green-soft',
  '--color-background-warning': '--amber-soft',
  '--color-text-primary': '--text',
  '--color-text-secondary': '--text-muted',
  '--color-text-tertiary': '--text-subtle',
  '--color-text-inverse': '--bg-surface',
  '--color-text-info': '--accent-text',
  '--color-text-danger': '--red-text',
  '--color-text-success': '--green',
  '--color-text-warning': '--amber',
  '--color-border-primary': '--border-strong',
  '--color-border-secondary': '--border',
  '--color-border-tertiary': '--border',
  '--color-border-danger': '--red-border',
  '--color-ring-primary': '--accent',
  '--font-sans': '--font-sans',
  '--font-mono': '--font-mono',
  '--font-text-xs-size': '--text-xs',
  '--font-text-sm-size': '--text-sm',
  '--font-text-md-size': '--text-base',
  '--font-text-lg-size': '--text-md',
  '--font-heading-sm-size': '--text-md',
  '--font-heading-md-size': '--text-lg',
  '--font-heading-lg-size': '--text-xl',
  '--border-radius-sm': '--radius-sm',
  '--border-radius-md': '--radius',
  '--border-radius-lg': '--radius-lg',
};

/** Light or dark, as our own CSS picks it (it follows the OS). */
export function currentTheme(): 'light' | 'dark' {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Our tokens' current values under the spec's names, so an app can look like the host. */
export function styleVariables(): McpUiStyles {
  const computed = getComputedStyle(document.documentElement);
  const out: Partial<Record<keyof McpUiStyles, string>> = {};
  for (const [key, token] of Object.entries(TOKEN_OF) as [keyof McpUiStyles, string][]) {
    const value = computed.getPropertyValue(token).trim();
    if (value !== '') out[key] = value;
  }
  return out as McpUiStyles;
}

/** The host context an app gets in ui/initialize, and again (changed parts) when it changes. */
export function hostContext(options: {
  displayMode: DisplayMode;
  width: number;
  maxHeight: number;
}): McpUiHostContext {
  return {
    theme: currentTheme(),
    styles: { variables: styleVariables() },
    displayMode: options.displayMode,
    availableDisplayModes: [...DISPLAY_MODES],
    containerDimensions: { width: Math.round(options.width), maxHeight: Math.round(options.maxHeight) },
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: 'mcp-host',
    platform: 'desktop',
    deviceCapabilities: {
      hover: window.matchMedia('(hover: hover)').matches,
      touch: navigator.maxTouchPoints > 0,
    },
  };
}
