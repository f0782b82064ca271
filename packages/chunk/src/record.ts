/** Roles of a normalised transcript record. Tool output is its own role so gates can weigh it apart from prose. */
export const RECORD_ROLES = [
  'user',
  'assistant',
  'tool_call',
  'tool_result',
  'system',
  'summary',
] as const;
export type RecordRole = (typeof RECORD_ROLES)[number];

/** Where a record came from, precisely enough to cite it. */
export interface RecordProvenance {
  /** Source URI: `claude:<sessionId>`, `pi:<file stem>`, `loop:<task>/<attempt>`, `http:<ingest id>`. */
  source: string;
  /** The file it was read from (absent for records posted over HTTP). */
  file?: string;
  /** 1-based line in that file. */
  line?: number;
  /** The entry id inside the source (Claude `uuid` / `message.id`, pi entry `id`). */
  entry?: string;
}

/** One titled part of a compaction summary ("Key decisions", "3. Files and Code Sections"). */
export interface SummarySection {
  heading: string;
  text: string;
  /**
   * The headings of the sections this one sits in, outermost first ("Key Architecture
   * Decisions" above "### Avoiding Global State"); absent at the top level.
   */
  path?: string[];
}

/** What a user record really is when it was pasted, not spoken: a JSON value, JSON lines, or tool output. */
export type PastedKind = 'json' | 'jsonl' | 'tool-output';

/** One normalised record: what every source adapter yields and the chunker consumes. */
export interface SourceRecord {
  role: RecordRole;
  /** Scrubbed text: secrets are already replaced by typed placeholders. */
  text: string;
  /** ISO-8601 timestamp, or null when the source has none. */
  timestamp: string | null;
  provenance: RecordProvenance;
  /** Working directory the record was produced in, from the file itself; null when unknown. */
  cwd: string | null;
  /** `summary` records only, when the summary has headings: its sections in order (the text holds them too). */
  sections?: SummarySection[];
  /** `user` records only: set when the text is a paste (raw JSON / JSONL / a tool dump), not the user's words. */
  pasted?: PastedKind;
}

/** A source of records: an async iterable. A batch source is just a finite stream. */
export type RecordSource = AsyncIterable<SourceRecord>;
