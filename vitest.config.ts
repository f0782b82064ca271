import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Tests import workspace packages from their TypeScript sources (the "mem-source" export
// condition); child processes spawned by tests run the built CLI from dist/.
const conditions = ['mem-source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['mem-source'] } },
  test: {
    include: ['packages/*/src/**/*.spec.ts', 'test/**/*.spec.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'test/bench/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
