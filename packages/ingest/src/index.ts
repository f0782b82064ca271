export {
  loadStandingQueries,
  selectQueries,
  SOURCE_KINDS,
  type LoadOptions,
  type ResolvedSource,
  type SourceKind,
  type StandingQueries,
} from './standing-queries.js';
export {
  ingest,
  type IngestEngine,
  type IngestOptions,
  type IngestProgress,
  type IngestReport,
  type QueryReport,
} from './ingest.js';
export { synthesize, type SynthesizeOptions, type SynthesizeReport } from './synthesize.js';
export { dryRun, type DryRunReport } from './dry-run.js';
export { chooseController, CONTROLLERS, type ControllerName } from './controllers.js';
export { localDryRun, localIngest, localSynthesize, type LocalRunOptions } from './local-run.js';
export { DerivedManifest } from './derived.js';
export { auditDerivedEvidence, type DerivedAudit, type DerivedEvidence } from './derived-audit.js';
export { newRunId } from './run-id.js';
export { transcriptSource } from './transcripts.js';
export { IngestJobs, type IngestJobsOptions, type LiveJob } from './jobs/ingest-jobs.js';
export { JobAcceptance, type Accepted, type AcceptRequest } from './jobs/acceptance.js';
export {
  MAX_RECORDS,
  recordsFromPosted,
  recordsFromTranscript,
  type IngestRecord,
  type PostedRecord,
} from './jobs/accepted-records.js';
export { composeSkill, type SkillComposer, type SkillSource } from './skills/index.js';
export {
  addCorpus,
  listCorpora,
  removeCorpus,
  syncCorpora,
  type CorpusEngine,
  type CorpusResult,
} from './reference/reference-corpus.js';
export { type CorpusSyncReport } from './reference/corpus-plan.js';
export { type ReferencePassage } from './reference/passages.js';
export {
  checkGrounding,
  citedKey,
  type CitedChunk,
  type Grounding,
} from './grounding/source-grounding.js';
export {
  checkCitedSources,
  citedSpanDigests,
  fsGroundingIo,
  type CitedSourcesOptions,
  type GroundingIo,
} from './grounding/cited-sources.js';
