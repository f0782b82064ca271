import { defaultServerConditions } from 'vite';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// Tests import workspace packages from their TypeScript sources (the "mem-source" export
// condition); child processes spawned by tests run the built CLI from dist/.
const conditions = ['mem-source', ...defaultServerConditions];
const resolveSources = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['mem-source'] } },
};

const roots = ['packages/*/src/**', 'test/**'];
/** The crash drills: real processes killed at random moments, the slowest tier. */
const DRILL = ['packages/log/src/crash-drill.int.spec.ts', 'packages/log/src/drills.int.spec.ts'];
const exclude = ['**/node_modules/**', '**/dist/**', '**/dist-base/**', 'test/bench/**'];

/**
 * One tier of the suite. Each project states the resolve conditions itself: a project that
 * lost them would test dist/ instead of the sources, and still pass.
 */
function tier(
  name: string,
  test: NonNullable<TestProjectInlineConfiguration['test']>,
): TestProjectInlineConfiguration {
  return {
    ...resolveSources,
    test: {
      name,
      testTimeout: 60_000,
      hookTimeout: 60_000,
      pool: 'forks',
      ...test,
      exclude: [...exclude, ...(test.exclude ?? [])],
    },
  };
}

export default defineConfig({
  ...resolveSources,
  test: {
    projects: [
      tier('unit', { include: roots.map((root) => `${root}/*.unit.spec.ts`) }),
      // Real files, PGlite, processes and HTTP; PGlite is initialised once per run and copied per root.
      tier('int', {
        include: roots.map((root) => `${root}/*.int.spec.ts`),
        exclude: DRILL,
        // A case run in process awaits the rebuild a spawned one blocked on, and a blocking
        // spawnSync was never timed out; on a loaded 2-core box one rebuild of the demo log
        // takes minutes of wall time (14 s of CPU), so 60 s failed cases that were only slow.
        testTimeout: 300_000,
        hookTimeout: 300_000,
        globalSetup: ['test/support/pglite-template.global.ts'],
        setupFiles: ['test/support/pglite-template.setup.ts'],
      }),
      tier('drill', { include: DRILL }),
    ],
  },
});
