/**
 * `@mem/ingest`, loaded the first time an operation runs it. Why not a static import: it
 * brings the gated loop, the extractor, the transcript sources, the chunker and the model
 * client, over a second of a cold `mem` start that `--help`, `items find` or `orient` never
 * use (issue 15, target 6; test/cli-cold-start.int.spec.ts traces it). Definitions need only
 * `@mem/ingest/definitions`, which imports nothing.
 */
export const loadIngest = () => import('@mem/ingest');

/** The loaded module. */
export type Ingest = Awaited<ReturnType<typeof loadIngest>>;
