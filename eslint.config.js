import js from '@eslint/js';
import { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { noCycleCountingTypes } from './scripts/lint-no-cycle.js';

export default tseslint.config(
  // src/client/generated: ajv's standalone code (scripts/response-checks.mjs); a test keeps it fresh.
  { ignores: ['dist/**', '.dist-*/**', 'node_modules/**', 'coverage/**', 'src/client/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', Buffer: 'readonly',
        AbortController: 'readonly', AbortSignal: 'readonly', performance: 'readonly',
        structuredClone: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', fetch: 'readonly',
        setImmediate: 'readonly', queueMicrotask: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', {
        selector: "MemberExpression[object.name='process'][property.name='exit']",
        message: 'Only src/main.ts decides the exit code.',
      }],
    },
  },
  {
    // No import cycles in src/, type imports included (README, Development: Layout): import-x/no-cycle, made to
    // count `import type` (scripts/lint-no-cycle.js). Sources import each other as `./x.js`.
    files: ['src/**/*.ts'],
    plugins: { imports: { rules: { 'no-cycle': noCycleCountingTypes } } },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'imports/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The formula engine is pure: nothing from the rest of the project.
    files: ['src/formula/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../*', 'zod', 'fastify', 'undici'] }] },
  },
  {
    // Strict UTF-8 decoding, shared by the CLI, admin and the service: a leaf that imports nothing.
    files: ['src/encoding/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../*', 'node:*', 'zod', 'fastify', 'undici'] }] },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../cli/*', '../client/*', '../server/*', '../admin/*', 'fastify', 'undici', 'better-sqlite3'] }] },
  },
  {
    // The preview is pure and bundled for the browser too: contract/ and formula/ only, no I/O.
    files: ['src/preview/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../cli/*', '../client/*', '../server/*', '../admin/*', '../dashboard/*', 'node:*', 'fastify', 'undici', 'better-sqlite3', 'commander', '@resvg/*'] }] },
  },
  {
    // The language server's logic is protocol-free: a document's text in, findings, completions,
    // hovers and fixes out, from contract/, formula/ and preview/ only; the verb wires the protocol.
    files: ['src/lsp/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../cli/*', '../client/*', '../server/*', '../admin/*', '../dashboard/*', 'node:*', 'vscode-languageserver', 'vscode-languageserver/*', 'vscode-jsonrpc', 'fastify', 'undici', 'better-sqlite3', 'commander'] }] },
  },
  {
    files: ['src/client/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../cli/*', '../server/*', '../admin/*', 'fastify', 'better-sqlite3'] }] },
  },
  {
    files: ['src/server/**/*.ts', 'src/admin/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../cli/*', '../../cli/*', '../client/*', '../../client/*', 'undici', 'commander'] }] },
  },
  {
    // The dashboard and the preview page run in a browser: the pure engine, the renderer and the
    // zod-free vocabulary only (types from contract/ are erased); nothing of Node's, no service code.
    files: ['src/dashboard/**/*.ts', 'src/preview-page/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', '../cli/*', '../../cli/*', '../client/*', '../../client/*', '../server/*', '../../server/*', '../admin/*', '../../admin/*', 'zod', 'fastify', 'undici', 'better-sqlite3'] }],
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['../contract/*', '../../contract/*', '!../contract/vocabulary.js', '!../../contract/vocabulary.js'], allowTypeImports: true, message: 'Only types from contract/ (its schemas would bundle zod into the page); values from contract/vocabulary.js.' }],
      }],
    },
  },
  {
    // The published entry is CommonJS (bin/package.json): it loads the bundle, from V8's
    // code cache when it can, so it is a launcher and may touch process. bench/undici-alone.cjs
    // loads the build the same way, and packages/sqlite-node20 re-exports better-sqlite3 12.
    files: ['bin/**/*.js', 'bench/**/*.cjs', 'packages/*/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'readonly', __dirname: 'readonly', WebAssembly: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // main.ts decides the exit code; the bin's endProcess carries it out (caches first, then Node 24's flags).
    files: ['src/main.ts', 'bin/code-cache.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Scripts and benchmarks are their own top level.
    files: ['test/**/*.ts', 'bench/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', 'no-restricted-syntax': 'off' },
  },
);
