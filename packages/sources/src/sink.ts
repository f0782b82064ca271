import type {
  PastedKind,
  RecordProvenance,
  RecordRole,
  SourceRecord,
  SummarySection,
} from '@mem/chunk';
import { scrubSecrets } from '@mem/core';
import type { ResolvedOptions } from './options.js';
import type { StatsCollector } from './stats.js';
import { capText } from './text/cap.js';
import { mediaPlaceholder, stripDataUris } from './text/media.js';

/** Where a record sits and in what context it was produced. */
export interface RecordOrigin {
  source: string;
  line: number;
  entry?: string | undefined;
  timestamp: string | null;
  cwd: string | null;
}

/** Forced on every record of a file (loop artifacts reuse the Claude and pi readers under their own names). */
export interface OriginOverride {
  source: string;
  /** Prefixed to the entry id as `<prefix>:<entry>` (or alone when there is no entry id). */
  entryPrefix?: string;
}

/** What a reader knows about a record beyond its text. */
export interface RecordExtra {
  /** A summary's sections; their headings, paths and text are scrubbed like the record's. */
  sections?: readonly SummarySection[] | undefined;
  /** A user text that is a paste; counted under `pasted` in the stats. */
  pasted?: PastedKind | undefined;
}

const TOOL_ROLES: ReadonlySet<RecordRole> = new Set(['tool_call', 'tool_result']);

/**
 * The one exit of every adapter: it scrubs secrets, strips inline base64, caps tool text, drops
 * empty text, counts, and queues the record. No text reaches a caller without passing here.
 */
export class RecordSink {
  readonly queue: SourceRecord[] = [];
  override: OriginOverride | undefined;

  constructor(
    private readonly stats: StatsCollector,
    private readonly options: ResolvedOptions,
    /** The file records cite; undefined for in-memory transcripts. */
    private readonly file: string | undefined,
  ) {}

  get thinking(): boolean {
    return this.options.thinking;
  }

  /** Queues one record; false (and counted as skipped `empty`) when nothing is left of its text. */
  emit(role: RecordRole, raw: string, origin: RecordOrigin, extra: RecordExtra = {}): boolean {
    let text = stripDataUris(raw, (kind, bytes) => this.stats.mediaDropped(kind, bytes));
    const scrubbed = scrubSecrets(text);
    for (const [kind, n] of Object.entries(scrubbed.counts)) this.stats.secret(kind, n);
    text = scrubbed.text.trim();
    if (text === '') {
      this.stats.skip('empty');
      return false;
    }
    if (TOOL_ROLES.has(role)) {
      const capped = capText(text, this.options.toolTextCap);
      if (capped.cut > 0) this.stats.toolTextCut(capped.cut);
      text = capped.text;
    }
    this.stats.record(role);
    const record: SourceRecord = {
      role,
      text,
      timestamp: origin.timestamp,
      provenance: this.provenance(origin),
      cwd: origin.cwd === null ? null : this.scrubbedField(origin.cwd),
    };
    if (extra.sections !== undefined && extra.sections.length > 0) {
      record.sections = extra.sections.map((s) => ({
        heading: scrubSecrets(s.heading).text,
        text: scrubSecrets(s.text).text,
        // The headings above a section are what make "### Avoiding Global State" a decision;
        // a reader that found them must not lose them here (absent at the top level).
        ...(s.path !== undefined && s.path.length > 0
          ? { path: s.path.map((h) => scrubSecrets(h).text) }
          : {}),
      }));
    }
    if (extra.pasted !== undefined) {
      record.pasted = extra.pasted;
      this.stats.pasted(extra.pasted);
    }
    this.queue.push(record);
    return true;
  }

  /** Counts a dropped base64 image or document and returns its placeholder text. */
  media(kind: 'image' | 'document', mediaType: string | undefined, bytes: number): string {
    this.stats.mediaDropped(kind, bytes);
    return mediaPlaceholder(kind, mediaType, bytes);
  }

  skip(kind: string): void {
    this.stats.skip(kind);
  }

  /** Counts harness text kept under another role than it claimed (`interrupted`, `task-notification`, …). */
  retyped(kind: string): void {
    this.stats.retype(kind);
  }

  /** Counts a file found to be a harness run (a Warmup subagent): its lines are skipped as they come. */
  skipFile(reason: string): void {
    this.stats.skipFile(reason);
  }

  /** Counts a line dropped because its uuid was already read in this source. */
  duplicateUuid(kind: string): void {
    this.stats.duplicateUuids += 1;
    this.stats.skip(kind);
  }

  /**
   * Source, entry and cwd are scrubbed here as well as in the log: the source is an identity
   * (resume positions, seen chunks), so what a reader yields must already be what the log stores.
   */
  private provenance(origin: RecordOrigin): RecordProvenance {
    const source = this.scrubbedField(this.override?.source ?? origin.source);
    const prefix = this.override?.entryPrefix;
    const entry =
      prefix === undefined
        ? origin.entry
        : origin.entry === undefined
          ? prefix
          : `${prefix}:${origin.entry}`;
    const provenance: RecordProvenance = { source };
    if (this.file !== undefined) provenance.file = this.file;
    provenance.line = origin.line;
    if (entry !== undefined) provenance.entry = this.scrubbedField(entry);
    return provenance;
  }

  /** Scrubbed source and cwd values: a file's records repeat the same few (bounded, entries are unique). */
  private readonly scrubbedFields = new Map<string, string>();

  private scrubbedField(value: string): string {
    let scrubbed = this.scrubbedFields.get(value);
    if (scrubbed === undefined) {
      scrubbed = scrubSecrets(value).text;
      if (this.scrubbedFields.size >= 64) this.scrubbedFields.clear();
      this.scrubbedFields.set(value, scrubbed);
    }
    return scrubbed;
  }
}
