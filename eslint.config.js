// ESLint (flat config): the rules the Epic Stack uses (@epic-web/config), written out here because
// that package is not a dependency. `npm run lint` fails on any warning (--max-warnings 0), so a
// rule is either worth fixing every time or not listed. Formatting is Prettier's job, not ESLint's.
import js from '@eslint/js'
import importX from 'eslint-plugin-import-x'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import react from 'eslint-plugin-react'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const testFiles = ['tests/**']

/** The imports source files may not make, plus `patterns` of their folder. */
function restrictedImports(patterns) {
  const whole = 'Pages are sent whole (entry.server.tsx waits for onAllReady): nothing streams.'
  return {
    patterns: [{ group: ['**/tests/**'], message: 'Do not import test files in source files' }, ...patterns],
    paths: [
      { name: '@remix-run/node', importNames: ['defer'], message: whole },
      { name: '@remix-run/react', importNames: ['Await'], message: whole },
    ],
  }
}

export default tseslint.config(
  { ignores: ['build/**', '.cache/**', 'node_modules/**', 'data/**', 'tmp/**', 'test-results/**'] },

  js.configs.recommended,

  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    rules: {
      'no-unexpected-multiline': 'error',
      'no-warning-comments': ['error', { terms: ['FIXME'], location: 'anywhere' }],
      'import-x/no-duplicates': 'warn',
      'import-x/order': [
        'warn',
        {
          alphabetize: { order: 'asc', caseInsensitive: true },
          pathGroups: [
            { pattern: '~/**', group: 'internal' },
            { pattern: '#contract/**', group: 'internal' },
          ],
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
        },
      ],
    },
  },

  // TypeScript: the recommended set, plus the two type-aware rules that catch real bugs (a promise
  // nobody awaits, an async function where a callback's result is ignored).
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'warn',
        { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['warn', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },

  // Plain JavaScript (scripts, configs): unused variables are the one check TypeScript does not do for them.
  {
    files: ['**/*.js', '**/*.mjs'],
    rules: {
      'no-unused-vars': ['warn', { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },

  // The browser side: React, hooks, accessibility.
  {
    files: ['app/**/*.tsx', 'app/**/*.ts'],
    extends: [react.configs.flat.recommended, react.configs.flat['jsx-runtime'], jsxA11y.flatConfigs.recommended],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    settings: { react: { version: 'detect' } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // TypeScript checks props.
      'react/prop-types': 'off',
    },
  },

  // Kysely's own advice: a migration sees the database as it was then, not today's schema types.
  {
    files: ['api/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // Tests may cast what they read back to whatever they expect.
  {
    files: testFiles,
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // Source never imports tests. Pages are sent whole (entry.server.tsx waits for onAllReady, so the
  // adapter compresses one body): a deferred value would not stream, the page would wait for it.
  // The web process (server/) and the Remix build (app/) are two bundles: a module imported by both
  // would exist twice at run time, so neither imports the other (per-request state goes to loaders
  // through the load context).
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', restrictedImports([])] },
  },
  {
    files: ['app/**/*.ts', 'app/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        restrictedImports([{ group: ['**/server/**', '**/server.ts'], message: 'app/ does not import the web process (server/)' }]),
      ],
    },
  },
  // Two apps, two builds (decision 052): a customer screen never imports the console, a desk never
  // a customer screen (either would ship in the other's bundles).
  {
    files: ['app/routes/**/*.ts', 'app/routes/**/*.tsx', 'app/root.tsx', 'app/entry.*.tsx', 'app/components/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        restrictedImports([
          { group: ['**/server/**', '**/server.ts'], message: 'app/ does not import the web process (server/)' },
          { group: ['~/ops/*', '**/ops/**'], message: "the customer's app does not import the console's (app/ops)" },
        ]),
      ],
    },
  },
  {
    files: ['app/ops/**/*.ts', 'app/ops/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        restrictedImports([
          { group: ['**/server/**', '**/server.ts'], message: 'app/ does not import the web process (server/)' },
          {
            group: ['~/routes/*', '~/root', '**/app/routes/**', '../routes/*', '../root'],
            message: "the console does not import the customer's screens",
          },
        ]),
      ],
    },
  },
  // app/utils holds what every layer of the app may use; the api client (app/upstream) builds on
  // it, never the other way round.
  {
    files: ['app/utils/**/*.ts', 'app/utils/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        restrictedImports([
          { group: ['**/server/**', '**/server.ts'], message: 'app/ does not import the web process (server/)' },
          { group: ['~/upstream/*', '**/upstream/**'], message: 'app/utils does not import the api client (app/upstream)' },
        ]),
      ],
    },
  },
  {
    files: ['server/**/*.ts', 'server.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        restrictedImports([
          { group: ['~/*', '**/app/**'], message: 'server/ reaches the app only through the Remix build and the load context' },
        ]),
      ],
    },
  },
)
