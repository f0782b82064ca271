import { RECORD_ROLES, type PastedKind, type RecordRole } from '@mem/chunk';

/** Where a bad line sits: enough to open the file at it. */
export interface LineRef {
  file: string;
  line: number;
}

/** What one source read: plain JSON, keys sorted, so a dry run can print it as is. */
export interface SourceStats {
  /** Transcript files opened. */
  files: number;
  /** Files found but not read, by reason (`acompact-file`, `unreadable`, ...). */
  filesSkipped: Record<string, number>;
  /** Complete (newline-terminated) lines read, blank ones included. */
  lines: number;
  /** Bytes read, truncated tails included. */
  bytes: number;
  /** Records yielded, by role (every role present, zeros included). */
  records: Record<RecordRole, number>;
  /** Lines or blocks read and deliberately not yielded, by kind (`progress`, `unknown:<type>`, ...). */
  skipped: Record<string, number>;
  /**
   * Harness text kept as a record of another role than the line claimed, by kind: e.g.
   * `interrupted` and `task-notification` (a `user` line that became `system`).
   */
  retyped: Record<string, number>;
  /** User records flagged as pasted (raw JSON / JSONL / tool output), by kind. */
  pasted: Record<string, number>;
  /**
   * Lines no reader knew (`unknown:*` skips): how many, and the commonest kinds, most first
   * (UNKNOWN_TOP of them). A source with lines and no records shows why here.
   */
  unknown: { count: number; top: Array<{ kind: string; count: number }> };
  /** Lines that are not JSON (after glued-object recovery); `samples` is capped, `count` is not. */
  invalidJson: { count: number; samples: LineRef[] };
  /** Final lines with no `\n` after them: not ingested (a live file is still being written). */
  truncatedTails: { count: number; samples: Array<LineRef & { bytes: number }> };
  /** Lines holding several JSON objects glued together, and the objects recovered from them. */
  glued: { lines: number; objects: number };
  /** Base64 images and documents replaced by a placeholder: how many, and their decoded size. */
  media: { images: number; documents: number; bytes: number };
  /** Secrets replaced by a typed placeholder, by kind. */
  secrets: Record<string, number>;
  /** Lines whose `uuid` was already seen in this source (also counted under `skipped`). */
  duplicateUuids: number;
  /** Tool texts cut to head + tail, and the characters cut. */
  toolTextCut: { count: number; chars: number };
}

/** The most sample locations a list keeps; the count keeps counting. */
export const SAMPLE_CAP = 20;

/** The most distinct skip kinds kept; later new kinds count under `other`. */
export const MAX_SKIP_KINDS = 200;

/** How many of the commonest unknown kinds `unknown.top` names. */
export const UNKNOWN_TOP = 5;

/** Mutable counters behind a source; `snapshot()` gives the JSON-able, key-sorted view. */
export class StatsCollector {
  files = 0;
  lines = 0;
  bytes = 0;
  duplicateUuids = 0;
  private readonly filesSkipped = new Map<string, number>();
  private readonly records = new Map<RecordRole, number>();
  private readonly skipped = new Map<string, number>();
  private readonly secrets = new Map<string, number>();
  private readonly retypedKinds = new Map<string, number>();
  private readonly pastedKinds = new Map<string, number>();
  private readonly invalid = { count: 0, samples: [] as LineRef[] };
  private readonly truncated = { count: 0, samples: [] as Array<LineRef & { bytes: number }> };
  private readonly glued = { lines: 0, objects: 0 };
  private readonly media = { images: 0, documents: 0, bytes: 0 };
  private readonly cut = { count: 0, chars: 0 };

  skipFile(reason: string): void {
    bump(this.filesSkipped, reason, 1);
  }

  record(role: RecordRole): void {
    bump(this.records, role, 1);
  }

  skip(kind: string, n = 1): void {
    // Kinds can carry names read off disk (`unknown:<type>`): past a bound, lump new ones together.
    const key = this.skipped.has(kind) || this.skipped.size < MAX_SKIP_KINDS ? kind : 'other';
    bump(this.skipped, key, n);
  }

  retype(kind: string): void {
    bump(this.retypedKinds, kind, 1);
  }

  pasted(kind: PastedKind): void {
    bump(this.pastedKinds, kind, 1);
  }

  secret(kind: string, n: number): void {
    bump(this.secrets, kind, n);
  }

  invalidJson(ref: LineRef): void {
    this.invalid.count += 1;
    if (this.invalid.samples.length < SAMPLE_CAP) this.invalid.samples.push(ref);
  }

  truncatedTail(ref: LineRef, bytes: number): void {
    this.truncated.count += 1;
    if (this.truncated.samples.length < SAMPLE_CAP) this.truncated.samples.push({ ...ref, bytes });
  }

  gluedLine(objects: number): void {
    this.glued.lines += 1;
    this.glued.objects += objects;
  }

  mediaDropped(kind: 'image' | 'document', bytes: number): void {
    if (kind === 'image') this.media.images += 1;
    else this.media.documents += 1;
    this.media.bytes += bytes;
  }

  toolTextCut(chars: number): void {
    this.cut.count += 1;
    this.cut.chars += chars;
  }

  private unknownSummary(): SourceStats['unknown'] {
    const kinds = [...this.skipped].filter(([kind]) => kind.startsWith('unknown'));
    const top = kinds
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, UNKNOWN_TOP)
      .map(([kind, count]) => ({ count, kind }));
    return { count: kinds.reduce((n, [, c]) => n + c, 0), top };
  }

  snapshot(): SourceStats {
    const records = {} as Record<RecordRole, number>;
    for (const role of [...RECORD_ROLES].sort()) records[role] = this.records.get(role) ?? 0;
    return {
      bytes: this.bytes,
      duplicateUuids: this.duplicateUuids,
      files: this.files,
      filesSkipped: sortedObject(this.filesSkipped),
      glued: { lines: this.glued.lines, objects: this.glued.objects },
      invalidJson: {
        count: this.invalid.count,
        samples: this.invalid.samples.map((s) => ({ file: s.file, line: s.line })),
      },
      lines: this.lines,
      media: {
        bytes: this.media.bytes,
        documents: this.media.documents,
        images: this.media.images,
      },
      pasted: sortedObject(this.pastedKinds),
      records,
      retyped: sortedObject(this.retypedKinds),
      secrets: sortedObject(this.secrets),
      skipped: sortedObject(this.skipped),
      toolTextCut: { chars: this.cut.chars, count: this.cut.count },
      truncatedTails: {
        count: this.truncated.count,
        samples: this.truncated.samples.map((s) => ({
          bytes: s.bytes,
          file: s.file,
          line: s.line,
        })),
      },
      unknown: this.unknownSummary(),
    };
  }
}

function bump<K>(map: Map<K, number>, key: K, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

function sortedObject(map: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of [...map.keys()].sort()) out[key] = map.get(key) ?? 0;
  return out;
}
