// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

/*
 * Layering (see docs/architecture.md, "Layer rules"). Do not relax these rules: a wrong import is
 * a lint error, not a review comment.
 *   shared/        no Node, no DOM, no Electron
 *   electron/host/ and the rest of the Node side: no Electron
 *   electron shell: only main.ts, preload.ts and the electron-*.ts adapters import electron
 *   renderer/      nothing from electron/, no Node
 */
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const ELECTRON_FILES = ['electron/main.ts', 'electron/preload.ts', 'electron/electron-*.ts'];

const noElectron = {
  name: 'electron',
  message: 'Only electron/main.ts, electron/preload.ts and electron/electron-*.ts may import electron.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { ...globals.node },
    },
  },
  // Everything outside the Electron shell files: no `electron` import.
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ELECTRON_FILES,
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
  // shared/: pure contract and types.
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noElectron,
            ...nodeBuiltins.map((name) => ({ name, message: 'shared/ must not use Node.' })),
          ],
          patterns: [
            {
              group: ['**/electron/**', '**/renderer/**'],
              message: 'shared/ imports nothing from other layers.',
            },
            { group: ['react', 'react-dom', 'react/*', 'zustand'], message: 'shared/ has no UI code.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'Buffer', 'require'],
    },
  },
  // renderer/: DOM only, and sees the host only through shared/.
  // Renderer tests and their helpers (test/unit/renderer/, test/helpers/renderer/) follow the same rules.
  {
    files: [
      'renderer/**/*.ts',
      'renderer/**/*.tsx',
      'test/unit/renderer/**/*.ts',
      'test/helpers/renderer/**/*.ts',
    ],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noElectron,
            ...nodeBuiltins.map((name) => ({ name, message: 'The renderer has no Node.' })),
          ],
          patterns: [
            {
              group: ['**/electron/**', '@modelcontextprotocol/*'],
              message: 'The renderer reaches the host only through window.host (shared/ipc).',
            },
          ],
        },
      ],
    },
  },
  // MCP Apps (renderer/src/features/apps/bridge/): the one renderer folder that runs an MCP SDK piece, the
  // official ext-apps AppBridge and PostMessageTransport, beside the app frames it talks to
  // by postMessage. Only that entry point; every request it makes still goes through the host.
  {
    files: ['renderer/src/features/apps/bridge/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noElectron,
            ...nodeBuiltins.map((name) => ({ name, message: 'The renderer has no Node.' })),
          ],
          patterns: [
            { group: ['**/electron/**'], message: 'The renderer reaches the host only through window.host.' },
            {
              regex: '^@modelcontextprotocol/(?!ext-apps/app-bridge$)',
              message:
                'renderer/src/features/apps/bridge may import only @modelcontextprotocol/ext-apps/app-bridge.',
            },
          ],
        },
      ],
    },
  },
  // The host core and everything else on the Node side.
  {
    files: ['electron/**/*.ts', 'test/**/*.ts', 'e2e/**/*.ts', 'scripts/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  // The sandboxed preload stays tiny: names only, no schemas (zod) at run time.
  {
    files: ['electron/preload.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['zod', '**/contract.js', '**/result.js', '**/model/*'],
              allowTypeImports: true,
              message: 'The preload imports only shared/ipc/names.js at run time.',
            },
          ],
        },
      ],
    },
  },
  // Test matchers (expect.any, expect.objectContaining) are typed `any` by
  // their libraries; assigning them inside expectations is fine.
  {
    files: ['test/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ELECTRON_FILES,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [{ group: ['**/renderer/**'], message: 'The host never imports the renderer.' }],
        },
      ],
    },
  },
);
