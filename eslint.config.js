// @ts-check
// eslint for the whole tree (issue 10, item 10). Typed rules read one program: tsconfig.specs.json
// covers every source, test and fixture type file, so one type-check serves them all (~20 s here).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores([
    '**/dist/',
    '**/dist-base/',
    '**/node_modules/',
    'coverage/',
    '.demo/',
    '.mem/',
    'log/',
    'vault/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { project: './tsconfig.specs.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Promise-returning contracts (projectors, embedders, MCP transports) are implemented as
      // `async` even without an await, so a synchronous throw still reaches the caller as a rejection.
      '@typescript-eslint/require-await': 'off',
      // An empty case label may carry a comment that says why its group of event types does nothing.
      'no-fallthrough': ['error', { allowEmptyCase: true }],
      // A leading underscore names a value left out on purpose (`const { prev: _prev, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // Specs read untyped wire JSON (HTTP bodies, MCP results, CLI --json output) on purpose: the
    // expect() that follows is the check, so a cast per property would only add noise.
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JS (the bin, fixtures the built children run, benches) is outside the TypeScript program.
    files: ['**/*.js', '**/*.mjs', 'vitest.config.ts'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  prettier,
);
