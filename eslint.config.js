import js from '@eslint/js'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'data',
      '.tmp',
      'test-results',
      'playwright-report',
      'src/server/db/migrations',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(only|skip)$/]',
          message: 'Focused or skipped tests must not be committed.',
        },
      ],
      // A cycle makes start-up order fragile (a value read before its module finished loading).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The three areas import one way: client and server both use contract, never each other.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/client',
              from: './src/server',
              message: 'The page must not import server code; share through src/contract.',
            },
            {
              target: './src/server',
              from: './src/client',
              message: 'The server must not import page code; share through src/contract.',
            },
            {
              target: './src/contract',
              from: ['./src/server', './src/client'],
              message: 'The contract imports only zod.',
            },
          ],
        },
      ],
    },
    settings: { 'import-x/resolver': { node: true } },
  },
  {
    files: ['src/server/**', 'e2e/**', 'scripts/**', '*.config.ts', '*.config.js'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/client/**'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
)
