export { loadStandingQueries, selectQueries, SOURCE_KINDS, type LoadOptions, type ResolvedSource, type SourceKind, type StandingQueries } from './standing-queries.js';
export { ingest, type IngestEngine, type IngestOptions, type IngestProgress, type IngestReport, type QueryReport } from './ingest.js';
export { synthesize, type SynthesizeOptions, type SynthesizeReport } from './synthesize.js';
export { dryRun, type DryRunReport } from './dry-run.js';
export { chooseController, CONTROLLERS, type ControllerName } from './controllers.js';
export { DerivedManifest } from './derived.js';
export { newRunId } from './run-id.js';
