// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

/** Imports that only src/main (outside the runtime) and src/preload may make. */
const electronImport = {
  name: 'electron',
  message: "Only src/main (outside src/main/runtime) and src/preload may import 'electron'.",
}

/** @param {string} message */
const nodeBuiltins = (message) => ({ group: ['node:*'], message })

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
              group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/cli/**'],
              message: 'src/shared imports nothing but itself.',
            },
          ],
        },
      ],
    },
  },
  // Layer: the runtime runs on plain Node and never sees Electron.
  {
    files: ['src/main/runtime/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            {
              group: ['**/renderer/**', '**/preload/**'],
              message: 'The runtime may not import the UI or the preload.',
            },
          ],
        },
      ],
    },
  },
  // Layer: the Electron main process adapts the runtime; it never imports the renderer.
  {
    files: ['src/main/*.ts', 'src/main/!(runtime)/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/renderer/**'], message: 'Main may not import the renderer.' }] },
      ],
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
              group: ['**/main/**', '**/preload/**', '**/cli/**'],
              message: 'The renderer imports only src/shared and itself.',
            },
          ],
        },
      ],
    },
  },
)
