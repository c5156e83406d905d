// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

/** Imports that only src/main and src/preload may make. */
const electronImport = {
  name: 'electron',
  message: "Only src/main (the Electron main process) and src/preload may import 'electron'.",
}

/**
 * The folders, by what may import them. Each layer below names the ones it may not import;
 * a pattern matches any relative path through that folder (`../../runtime/host/host`).
 */
const layer = {
  main: '**/main/**',
  runtime: '**/runtime/**',
  app: '**/app/**',
  server: '**/server/**',
  cli: '**/cli/**',
  offlineModel: '**/offline-model/**',
  preload: '**/preload/**',
  renderer: '**/renderer/**',
}

/** @param {string} message */
const nodeBuiltins = (message) => ({ group: ['node:*'], message })

/**
 * Raw IPC, as GitHub Desktop bans it: only the typed adapter (src/main/ipc.ts) and the preload
 * (src/preload/index.ts) may touch ipcMain and ipcRenderer, so every channel goes through the
 * contract's named commands and the sender check.
 */
const rawIpcMessage =
  'Raw IPC is allowed only in src/main/ipc.ts and src/preload/index.ts: go through the contract.'
const rawIpcImport = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer'],
  message: rawIpcMessage,
}
const rawIpcSyntax = [
  'error',
  // `electron.ipcMain`, `require('electron').ipcRenderer`, and destructuring of either.
  { selector: 'MemberExpression[property.name=/^ipc(Main|Renderer)$/]', message: rawIpcMessage },
  {
    selector: 'VariableDeclarator > ObjectPattern > Property[key.name=/^ipc(Main|Renderer)$/]',
    message: rawIpcMessage,
  },
]
/** The main layer's import rule; `allowRawIpc` drops the raw IPC ban for the adapter itself. */
const mainImports = (allowRawIpc = false) => [
  'error',
  {
    ...(allowRawIpc ? {} : { paths: [rawIpcImport] }),
    patterns: [
      {
        group: [layer.renderer, layer.cli],
        message: 'Main may not import the renderer or the CLI.',
      },
    ],
  },
]

/** The preload's import rule; `allowRawIpc` drops the raw IPC ban for the preload itself. */
const preloadImports = (allowRawIpc = false) => [
  'error',
  {
    paths: [
      ...(allowRawIpc ? [] : [rawIpcImport]),
      { name: 'zod', message: 'The preload bundle stays free of zod: main validates.' },
    ],
    patterns: [
      {
        group: [
          '**/shared/*',
          '!**/shared/ipc-channels',
          '!**/shared/ipc-reply',
          '!**/shared/errors',
        ],
        allowTypeImports: true,
        message:
          'The preload bundles what it imports: values only from ipc-channels, ipc-reply and errors (zod-free); types from anywhere.',
      },
      {
        group: [
          layer.main,
          layer.runtime,
          layer.app,
          layer.server,
          layer.cli,
          layer.offlineModel,
          layer.renderer,
        ],
        message: 'The preload imports only src/shared.',
      },
    ],
  },
]

export default tseslint.config(
  {
    ignores: ['node_modules/', 'out/', 'dist/', 'coverage/', 'test-results/', 'playwright-report/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  // Everywhere: no raw IPC (the layers below also ban 'electron' where it has no place at all).
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    rules: {
      'no-restricted-imports': ['error', { paths: [rawIpcImport] }],
      'no-restricted-syntax': rawIpcSyntax,
    },
  },
  // Layer: src/shared is pure TypeScript, the contract between runtime and UI.
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            nodeBuiltins('src/shared is pure: it may not import node: modules.'),
            {
              group: Object.values(layer),
              message: 'src/shared imports nothing but itself.',
            },
          ],
        },
      ],
    },
  },
  // Layer: the runtime runs on plain Node and never sees Electron, nor the programs built on it.
  {
    files: ['src/runtime/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            {
              group: [layer.renderer, layer.preload, layer.main],
              message:
                'The runtime may not import the UI, the preload or the Electron main process.',
            },
            {
              group: [layer.cli, layer.server, layer.app],
              message:
                'The runtime may not import the app service, the CLI or browser mode, which are built on it.',
            },
            {
              group: ['**/offline-model/**'],
              message: 'The runtime reaches the offline model only over HTTP, like any endpoint.',
            },
          ],
        },
      ],
    },
  },
  // Layer: the offline model is a stand-in for the Messages API, not part of the team runtime:
  // it sees only src/shared, so the runtime cannot lean on it and it cannot lean on the runtime.
  {
    files: ['src/offline-model/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            {
              group: [
                layer.main,
                layer.runtime,
                layer.app,
                layer.renderer,
                layer.preload,
                layer.cli,
                layer.server,
              ],
              message: 'The offline model imports only src/shared: it plays the model API.',
            },
          ],
        },
      ],
    },
  },
  // Layer: the app service, the one surface the desktop shell, browser mode and the CLI call:
  // it composes the runtime, the settings and the offline demo, below every program built on it.
  {
    files: ['src/app/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            {
              group: [layer.main, layer.renderer, layer.preload, layer.cli, layer.server],
              message:
                'The app service imports the runtime, the offline model and src/shared only.',
            },
          ],
        },
      ],
    },
  },
  // Layer: the CLI and browser mode's server run on plain Node, on top of the runtime.
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            {
              group: [layer.main, layer.renderer, layer.preload],
              message: 'The CLI may not import the Electron main process, the UI or the preload.',
            },
          ],
        },
      ],
    },
  },
  // The server is below the CLI: `serve` (src/cli/serve-command.ts) starts it, never the reverse.
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            {
              group: [layer.main, layer.renderer, layer.preload, layer.cli],
              message: 'The server may not import the UI, the preload or the programs built on it.',
            },
            {
              group: [layer.runtime, layer.app, layer.offlineModel],
              message:
                "The server imports only src/shared: it is handed the app service's execute, never the runtime.",
            },
          ],
        },
      ],
    },
  },
  // Layer: the Electron main process adapts the runtime; it never imports the renderer.
  {
    files: ['src/main/**/*.ts'],
    rules: { 'no-restricted-imports': mainImports() },
  },
  // The two files that are the typed IPC boundary: the adapter in main and the preload.
  {
    files: ['src/main/ipc.ts'],
    rules: { 'no-restricted-imports': mainImports(true), 'no-restricted-syntax': 'off' },
  },
  // Layer: the preload is one bundled file in a sandbox, so it takes values only from the
  // zod-free shared modules (types from anywhere), and never the main or renderer code.
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': preloadImports(),
    },
  },
  {
    files: ['src/preload/index.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': preloadImports(true),
      'no-restricted-syntax': 'off',
    },
  },
  // Layer: the renderer talks only to the contract in src/shared.
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'tests/unit/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            nodeBuiltins('The renderer runs in a browser: no node: modules.'),
            {
              group: [
                layer.main,
                layer.runtime,
                layer.app,
                layer.server,
                layer.cli,
                layer.offlineModel,
                layer.preload,
              ],
              message: 'The renderer imports only src/shared and itself.',
            },
          ],
        },
      ],
    },
  },
)
