// Vitest global setup of the `int` project: initialise the embedded Postgres once per run.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { isRunnableDevEnvironment } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An initialised PGlite data directory (pgvector created) that new embedded projections copy. */
    pgliteTemplate: string;
  }
}

/*
 * Why: initdb costs seconds per data root (about 20 s on a loaded 2-core runner), and the suite
 * makes hundreds of roots. The template is made by the production path (openBackend on a new
 * state directory: initdb, then CREATE EXTENSION vector), so a copy is the cluster a root makes.
 * That code is imported through the project's ssr runner: a global setup's own runner resolves
 * neither the "mem-source" condition nor TypeScript sources of the workspace packages.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const ssr = project.vite.environments['ssr'];
  if (!ssr || !isRunnableDevEnvironment(ssr))
    throw new Error(
      'the int project needs a runnable ssr environment to build the PGlite template',
    );
  const { makePgliteTemplate } = await ssr.runner.import<typeof import('./pglite-template.js')>(
    join(import.meta.dirname, 'pglite-template.ts'),
  );
  const template = await makePgliteTemplate();
  project.provide('pgliteTemplate', template.dir);
  return () => rmSync(template.base, { recursive: true, force: true });
}
