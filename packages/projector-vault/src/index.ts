export { projectorVault, type VaultHandle } from './projector.js';
export { applyEvent, vaultHandles, type FoldEffect } from './fold.js';
export {
  emptyFold,
  type EvidenceRef,
  type MemoryRef,
  type NoteFold,
  type NoteKey,
  type RunRef,
  type VaultFold,
} from './fold-state.js';
export { renderQueryNote, type RenderOptions } from './render-query.js';
export { renderIndexNote } from './render-index.js';
export { renderEvidenceNote, type EvidenceNoteInput } from './render-evidence.js';
export { managedPaths, renderProjectNotes } from './notes.js';
export {
  planVaultChanges,
  type ExistingFile,
  type UnreadableFile,
  type VaultPlan,
} from './plan.js';
export {
  evidenceNotePath,
  indexNotePath,
  queryNotePath,
  queryTitle,
  sourceNotePath,
  sourceSlug,
} from './paths.js';
export { readVaultNotes, type RefusedFile, type VaultNote, type VaultNotes } from './reader.js';
export { readVaultSkills, type VaultSkill, type VaultSkills } from './skills-reader.js';
export { vaultSkillsCache, type VaultSkillsCache } from './skills-cache.js';
export { foldOf, noteLines, type ShownLines } from './shown-lines.js';
export { skillNotePath } from './paths.js';
export {
  planNoteCapture,
  type CaptureFinding,
  type CaptureIntent,
  type NoteCaptureInput,
  type NoteCapturePlan,
} from './capture-plan.js';
export {
  memoryNotesChangedBy,
  projectedMemoryNotes,
  type MemoryNotesChange,
  type ProjectedNote,
} from './capture-notes.js';
