/**
 * The transcript formats this package reads. A module of its own, importing nothing, so a
 * command's definition can list them without loading the readers (`@mem/sources/kinds`).
 */
export const TRANSCRIPT_KINDS = ['claude', 'pi', 'loop', 'codex'] as const;
export type TranscriptKind = (typeof TRANSCRIPT_KINDS)[number];
