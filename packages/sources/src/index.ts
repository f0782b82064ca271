export { claudeProjectSource, isCompactionRunFile } from './claude/source.js';
export { codexSessionSource, isRolloutFile, type CodexFilter } from './codex/source.js';
export { sourceForPath } from './for-path.js';
export { findJsonlFiles } from './discover.js';
export { loopFileIdentity, type LoopFileIdentity } from './loop/identity.js';
export { loopArtifactSource } from './loop/source.js';
export { transcriptFromText, type InMemoryOptions } from './memory.js';
export { DEFAULT_MAX_LINE_BYTES, DEFAULT_TOOL_TEXT_CAP, type AdapterOptions } from './options.js';
export { piSessionSource } from './pi/source.js';
/** The scrubber lives in core (every event is scrubbed there too); adapters and their callers reach it here as before. */
export { scrubSecrets, type ScrubResult } from '@mem/core';
export { TRANSCRIPT_KINDS, type TranscriptKind, type TranscriptSource } from './source.js';
export { SAMPLE_CAP, UNKNOWN_TOP, type LineRef, type SourceStats } from './stats.js';
