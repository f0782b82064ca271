import {
  MemError,
  contentSha256,
  purgeMarker,
  splitMemoryLines,
  withoutMemoryLines,
  type EventOf,
  type EventType,
  type LogEvent,
} from '@mem/core';
import type { NoteFold, NoteKey, VaultFold } from './fold-state.js';
import { citedOnlyByForgotten } from './live-lines.js';
import { evidenceNotePath, sourceSlug } from './paths.js';
import { renderEvidenceNote } from './render-evidence.js';
import { applyReview } from './fold-review.js';
import { applySkill } from './fold-skills.js';
import type { RenderOptions } from './render-query.js';
import { dayOf, excerptOf } from './text.js';

/** What applying one event asks of the shell. */
export interface FoldEffect {
  /** Notes whose content changed (their `updated` was set to the event's day). */
  touched: NoteKey[];
  /** An evidence note to write now: its content is a function of this one event and never changes. */
  evidenceNote?: { path: string; content: string };
  /** An evidence note that must go: its evidence was tombstoned. */
  evidenceRemoved?: string;
}

const NO_EFFECT: FoldEffect = { touched: [] };

function newNote(day: string): NoteFold {
  return { memory: null, chunks_seen: 0, chunks_used: 0, updated: day };
}

function noteOf(fold: VaultFold, key: NoteKey): NoteFold | undefined {
  if (
    key.kind === 'source' ||
    key.kind === 'review' ||
    key.kind === 'reference' ||
    key.kind === 'skill'
  )
    return undefined;
  return key.kind === 'index' ? (fold.index ?? undefined) : fold.queries.get(key.queryId);
}

/** A note key as a string, for sets and dedupe. */
export function noteKeyId(key: NoteKey): string {
  if (key.kind === 'source') return `source:${key.slug}`;
  if (key.kind === 'reference') return `reference:${key.corpus}\0${key.source}`;
  if (key.kind === 'review') return 'review';
  if (key.kind === 'skill') return `skill:${key.draft ? 'draft' : 'loadable'}:${key.name}`;
  return key.kind === 'index' ? 'index' : `query:${key.queryId}`;
}

/** The note of the source session `source` is listed in. */
function sourceNote(source: string): NoteKey {
  return { kind: 'source', slug: sourceSlug(source) };
}

/**
 * Sets `updated` of every key to the event's day and returns them, each once. A source note
 * has no `updated` (it lists chunks, each with its own time), so it is returned as it is.
 */
function touch(fold: VaultFold, keys: readonly NoteKey[], ts: string): NoteKey[] {
  const out: NoteKey[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(noteKeyId(key))) continue;
    seen.add(noteKeyId(key));
    if (
      key.kind === 'source' ||
      key.kind === 'review' ||
      key.kind === 'reference' ||
      key.kind === 'skill'
    ) {
      out.push(key);
      continue;
    }
    const note = noteOf(fold, key);
    if (!note) continue;
    note.updated = dayOf(ts);
    out.push(key);
  }
  return out;
}

/** The note a run writes: its query's L1 note, or the index for an L2 run; null for a run never announced. */
function runNote(fold: VaultFold, runId: string): NoteKey | null {
  const run = fold.runs.get(runId);
  if (!run) return null;
  if (run.level === 'L2' || run.query_id === null) return { kind: 'index' };
  return { kind: 'query', queryId: run.query_id };
}

/** Notes whose current memory (with `includeMemory`: or one of its lines) is or rests on `sha`. */
function notesShowing(fold: VaultFold, sha: string, includeMemory: boolean): NoteKey[] {
  const shows = (note: NoteFold): boolean =>
    note.memory !== null &&
    ((includeMemory &&
      (note.memory.sha256 === sha || note.memory.lines.some((line) => line.sha256 === sha))) ||
      note.memory.parents.includes(sha));
  const keys: NoteKey[] = [];
  for (const [queryId, note] of fold.queries)
    if (shows(note)) keys.push({ kind: 'query', queryId });
  if (fold.index && shows(fold.index)) keys.push({ kind: 'index' });
  return keys;
}

function applyRun(fold: VaultFold, event: EventOf<'run'>): FoldEffect {
  const day = dayOf(event.ts);
  const keys: NoteKey[] = [];
  if (!fold.runs.has(event.run_id)) {
    // A run id names one run; a repeated `run` record keeps the first one's query.
    fold.runs.set(event.run_id, { level: event.level, query_id: event.query_id });
    if (event.level === 'L1' && event.query_id !== null && !fold.queries.has(event.query_id)) {
      fold.queries.set(event.query_id, newNote(day));
      keys.push({ kind: 'index' }); // a new L1 note is a new link in the index
    }
    if (!fold.index) fold.index = newNote(day);
  }
  const own = runNote(fold, event.run_id);
  if (own) keys.push(own);
  return { touched: touch(fold, keys, event.ts) };
}

function applyGate(fold: VaultFold, event: EventOf<'gate'>): FoldEffect {
  const key = runNote(fold, event.run_id);
  const note = key && noteOf(fold, key);
  if (!key || !note) return NO_EFFECT;
  note.chunks_seen += 1;
  if (event.update) note.chunks_used += 1;
  return { touched: touch(fold, [key], event.ts) };
}

function applyEvidence(
  fold: VaultFold,
  event: EventOf<'evidence'>,
  options: RenderOptions,
): FoldEffect {
  const own = runNote(fold, event.run_id);
  const keys: NoteKey[] = own ? [own] : [];
  if (fold.evidence.has(event.sha256)) return { touched: touch(fold, keys, event.ts) };
  // Provenance cites the first occurrence of a content sha: later copies change nothing.
  // Its span is its chunk's: the loop logs a chunk, then (gate open) the evidence of that chunk.
  const chunk = fold.chunks.get(event.run_id);
  const span = chunk && chunk.t === event.t && chunk.sha256 === event.sha256 ? chunk.span : null;
  fold.evidence.set(event.sha256, {
    source: event.source,
    t: event.t,
    excerpt: excerptOf(event.text),
    run_id: event.run_id,
    span,
    ts: event.ts,
  });
  keys.push(...notesShowing(fold, event.sha256, false), sourceNote(event.source));
  const effect: FoldEffect = { touched: touch(fold, keys, event.ts) };
  if (options.emitEvidenceNotes && !fold.tombstones.has(event.sha256)) {
    const queryId = fold.runs.get(event.run_id)?.query_id ?? null;
    effect.evidenceNote = {
      path: evidenceNotePath(fold.project, event.source, event.t, event.sha256),
      content: renderEvidenceNote({
        project: fold.project,
        query_id: queryId,
        source: event.source,
        t: event.t,
        sha256: event.sha256,
        text: event.text,
      }),
    };
  }
  return effect;
}

/** The memory's parents merged into those of earlier events of its text (first-seen order), recorded and returned. */
function gatherParents(fold: VaultFold, event: EventOf<'memory'>): string[] {
  const id = `${event.level}:${event.sha256}`;
  const parents = [...new Set([...(fold.memoryParents.get(id) ?? []), ...event.parents])];
  fold.memoryParents.set(id, parents);
  return [...parents];
}

/**
 * Each line's parents over every event that wrote this memory text: line i of one text is line
 * i of every copy, so a line rests on what each writer said it rested on (as the item store's
 * line edges do). Kept beside the memory's own, under `<level>:<sha>#<i>`.
 */
function gatherLineParents(fold: VaultFold, event: EventOf<'memory'>) {
  return event.lines.map((line, i) => {
    const id = `${event.level}:${event.sha256}#${i}`;
    const parents = [...new Set([...(fold.memoryParents.get(id) ?? []), ...line.parents])];
    fold.memoryParents.set(id, parents);
    return { sha256: line.sha256, parents: [...parents] };
  });
}

function applyMemory(fold: VaultFold, event: EventOf<'memory'>): FoldEffect {
  const key = runNote(fold, event.run_id);
  const note = key && noteOf(fold, key);
  if (!key || !note) return NO_EFFECT;
  const parents = gatherParents(fold, event);
  const lines = gatherLineParents(fold, event);
  note.memory = {
    sha256: event.sha256,
    text: event.text,
    parents,
    run_id: event.run_id,
    t: event.t,
    lines,
  };
  const keys: NoteKey[] = [key];
  // Trigger: another chain's note shows the same memory. Why: one text is one node, resting on
  // every event's parents (the item store's and pgvector's edges). Outcome: it shows them too.
  const sameLevel: NoteKey[] =
    key.kind === 'query'
      ? [...fold.queries.keys()].map((queryId) => ({ kind: 'query', queryId }))
      : [{ kind: 'index' }];
  for (const other of sameLevel) {
    const shown = noteOf(fold, other)?.memory;
    if (!shown || shown === note.memory || shown.sha256 !== event.sha256) continue;
    shown.parents = [...parents];
    shown.lines = lines.map((line) => ({ sha256: line.sha256, parents: [...line.parents] }));
    keys.push(other);
  }
  // A chunk left out for resting only on forgotten lines comes back to its source note when a
  // new line cites it.
  for (const line of event.lines)
    for (const parent of line.parents) {
      const cited = fold.evidence.get(parent);
      if (cited && fold.forgottenEvidence.has(parent)) keys.push(sourceNote(cited.source));
    }
  if (key.kind === 'query' && !fold.l1Memories.has(event.sha256)) {
    fold.l1Memories.set(event.sha256, key.queryId);
    keys.push(...notesShowing(fold, event.sha256, false).filter((k) => k.kind === 'index'));
  }
  return { touched: touch(fold, keys, event.ts) };
}

/** Keeps the run's latest L0 chunk (only the latest: its evidence, if any, comes next) for the span. */
function applyChunk(fold: VaultFold, event: EventOf<'chunk'>): FoldEffect {
  if (event.level === 'L0') {
    fold.chunks.set(event.run_id, {
      t: event.t,
      sha256: event.sha256,
      span: event.span === null ? null : [event.span[0], event.span[1]],
    });
  }
  return touchRun(fold, event);
}

function applyTombstone(
  fold: VaultFold,
  event: EventOf<'tombstone'>,
  options: RenderOptions,
): FoldEffect {
  fold.tombstones.set(event.target, event.reason);
  const evidence = fold.evidence.get(event.target);
  const reference = fold.references.get(event.target);
  const keys = [
    ...notesShowing(fold, event.target, true),
    ...(evidence ? [sourceNote(evidence.source)] : []),
    ...(reference ? [referenceNote(reference)] : []),
  ];
  const effect: FoldEffect = { touched: touch(fold, keys, event.ts) };
  if (options.emitEvidenceNotes && evidence) {
    effect.evidenceRemoved = evidenceNotePath(
      fold.project,
      evidence.source,
      evidence.t,
      event.target,
    );
  }
  return effect;
}

/** `shas` and every sha whose supersession chain leads to one of them: the lines that show their text. */
function withPredecessors(fold: VaultFold, shas: readonly string[]): Set<string> {
  const out = new Set(shas);
  for (let grown = true; grown;) {
    grown = false;
    for (const [sha, next] of fold.superseded)
      if (out.has(next.sha256) && !out.has(sha)) {
        out.add(sha);
        grown = true;
      }
  }
  return out;
}

/** Lines (with `memory`: and whole memories) of the notes showing any of `shas`, and those notes. */
function linesShowing(
  fold: VaultFold,
  shas: ReadonlySet<string>,
): { keys: NoteKey[]; parents: string[] } {
  const keys: NoteKey[] = [];
  const parents: string[] = [];
  const visit = (key: NoteKey, note: NoteFold | null | undefined): void => {
    const memory = note?.memory;
    const hit = memory
      ? memory.lines.filter((line) => shas.has(line.sha256) || shas.has(memory.sha256))
      : [];
    const added = (note?.added ?? []).some((line) => shas.has(line.sha256));
    if (hit.length === 0 && !added) return;
    keys.push(key);
    if (key.kind === 'query') parents.push(...hit.flatMap((line) => line.parents));
  };
  for (const [queryId, note] of fold.queries) visit({ kind: 'query', queryId }, note);
  visit({ kind: 'index' }, fold.index);
  return { keys, parents };
}

/**
 * A forgotten line (or memory) leaves every note showing it. The evidence its L1 lines rested
 * on is remembered, so a source note stops listing a chunk no live line cites any more (its
 * excerpt may hold the very text that was forgotten).
 */
function applyForgotten(fold: VaultFold, event: EventOf<'forgotten'>): FoldEffect {
  const own = [event.target, ...event.refuses.map((line) => line.sha256)];
  for (const sha of own) fold.forgotten.set(sha, event.reason);
  const { keys, parents } = linesShowing(fold, withPredecessors(fold, own));
  for (const parent of new Set(parents)) {
    const cited = fold.evidence.get(parent);
    if (!cited) continue;
    fold.forgottenEvidence.set(parent, event.reason);
    if (citedOnlyByForgotten(fold, parent)) keys.push(sourceNote(cited.source));
  }
  forgetText(fold, new Set(own));
  return { touched: touch(fold, keys, event.ts) };
}

/**
 * The fold keeps no copy of forgotten text (it is saved as the vault state file): each note's
 * memory drops the forgotten lines from its text and `lines` (a wholly forgotten memory drops
 * them all), and a successor that was forgotten keeps its sha only. A forgotten line that was
 * superseded keeps its place, its text replaced by a marker naming its sha: it shows its
 * replacement (liveText). Rendering already leaves the forgotten text out, so the notes are the
 * same; only the state file changes.
 */
function forgetText(fold: VaultFold, shas: ReadonlySet<string>): void {
  const strip = (note: NoteFold | null | undefined): void => {
    const memory = note?.memory;
    if (!memory) return;
    const whole = shas.has(memory.sha256);
    const gone = memory.lines.filter((line) => whole || shas.has(line.sha256));
    if (gone.length === 0) return;
    const masked = new Set(
      whole ? [] : gone.filter((line) => fold.superseded.has(line.sha256)).map((l) => l.sha256),
    );
    const dropped = new Set(gone.map((line) => line.sha256).filter((sha) => !masked.has(sha)));
    memory.text = maskedLines(withoutMemoryLines(memory.text, dropped), masked);
    memory.lines = memory.lines.filter((line) => !dropped.has(line.sha256));
  };
  for (const note of fold.queries.values()) strip(note);
  strip(fold.index);
  for (const note of [...fold.queries.values(), fold.index])
    for (const line of note?.added ?? []) if (shas.has(line.sha256)) line.text = '';
  for (const successor of fold.superseded.values())
    if (shas.has(successor.sha256)) successor.text = '';
}

/** `text` with each line whose content sha is in `shas` replaced by a marker naming that sha. */
function maskedLines(text: string, shas: ReadonlySet<string>): string {
  if (shas.size === 0) return text;
  return text
    .split('\n')
    .map((raw) => {
      const [line] = splitMemoryLines(raw);
      const sha = line === undefined ? null : contentSha256(line);
      return sha !== null && shas.has(sha) ? `- ${purgeMarker(sha)}` : raw;
    })
    .join('\n');
}

/**
 * A superseded line (or memory) shows its successor's text: the notes showing it change. The
 * first supersession holds. Trigger: a log superseding one target twice (A→B, then A→C:
 * written before the registry refused that, or by hand). Why: SQLite and pgvector keep the
 * first (their rows are written once), and the vault showed the last. Outcome: a later one
 * changes nothing here either.
 */
function applySuperseded(fold: VaultFold, event: EventOf<'superseded'>): FoldEffect {
  if (fold.superseded.has(event.target)) return { touched: [] };
  fold.superseded.set(event.target, { sha256: event.after_sha256, text: event.text });
  return {
    touched: touch(fold, linesShowing(fold, withPredecessors(fold, [event.target])).keys, event.ts),
  };
}

/**
 * A line written in the vault joins its note (made if the log has none yet, as a hand-written
 * log may ask): the note shows it under the line it was written under.
 */
function applyLineAdded(fold: VaultFold, event: EventOf<'line_added'>): FoldEffect {
  const day = dayOf(event.ts);
  let key: NoteKey;
  let note: NoteFold;
  if (event.query_id !== null) {
    key = { kind: 'query', queryId: event.query_id };
    note = fold.queries.get(event.query_id) ?? newNote(day);
    fold.queries.set(event.query_id, note);
  } else {
    key = { kind: 'index' };
    note = fold.index ?? newNote(day);
    fold.index = note;
  }
  note.added = [
    ...(note.added ?? []),
    { sha256: event.sha256, text: event.text, after: event.after },
  ];
  return { touched: touch(fold, [key], event.ts) };
}

/**
 * The event types that change the vault. The engine hands the projector no others; they only
 * advance its position: `recovery`, corpus registrations (a note per file is enough),
 * administration and ingest-job bookkeeping (the memory they lead to renders, they do not), and
 * `projection_settings_set` (settings reach the vault as its options: the engine reads them from
 * `_system` before opening it, and a change resets and replays every project).
 */
export const VAULT_HANDLES = [
  'run',
  'chunk',
  'gate',
  'evidence',
  'memory',
  'run_end',
  'reference',
  'tombstone',
  'forgotten',
  'superseded',
  'line_added',
  'review_opened',
  'review_decided',
  'skill_drafted',
  'skill_promoted',
  'skill_retired',
] as const satisfies readonly EventType[];

/** An event the vault handles. */
export type VaultEvent = EventOf<(typeof VAULT_HANDLES)[number]>;

/** True when the vault folds `event` (any such event may touch a note and re-render it). */
export function vaultHandles(event: Pick<LogEvent, 'type'>): boolean {
  return (VAULT_HANDLES as readonly string[]).includes(event.type);
}

function handled(event: LogEvent): event is VaultEvent {
  return vaultHandles(event);
}

/**
 * Folds one event into `fold` (in place, for bounded cost per event) and says what changed.
 * No I/O, no clock: the same events in the same order give the same fold, however they are
 * batched. Exhaustive over VAULT_HANDLES: a type added there does not compile without its fold.
 */
export function applyEvent(fold: VaultFold, event: LogEvent, options: RenderOptions): FoldEffect {
  if (!handled(event)) throw unknownEventType(event);
  switch (event.type) {
    case 'run':
      return applyRun(fold, event);
    case 'gate':
      return applyGate(fold, event);
    case 'evidence':
      return applyEvidence(fold, event, options);
    case 'memory':
      return applyMemory(fold, event);
    case 'reference':
      return applyReference(fold, event);
    case 'tombstone':
      return applyTombstone(fold, event, options);
    case 'forgotten':
      return applyForgotten(fold, event);
    case 'superseded':
      return applySuperseded(fold, event);
    case 'line_added':
      return applyLineAdded(fold, event);
    case 'chunk':
      return applyChunk(fold, event);
    case 'run_end':
      return touchRun(fold, event);
    case 'review_opened':
    case 'review_decided':
      return applyReview(fold, event);
    case 'skill_drafted':
    case 'skill_promoted':
    case 'skill_retired':
      return applySkill(fold, event);
    default:
      throw unknownEventType(event);
  }
}

/** A record that changes nothing shown but its note's `updated`. */
function touchRun(fold: VaultFold, event: EventOf<'chunk' | 'run_end'>): FoldEffect {
  const key = runNote(fold, event.run_id);
  return { touched: key ? touch(fold, [key], event.ts) : [] };
}

/** The note of the corpus file a passage comes from. */
function referenceNote(ref: { corpus: string; source: string }): NoteKey {
  return { kind: 'reference', corpus: ref.corpus, source: ref.source };
}

/**
 * A passage of a corpus joins its file's note. One outside any corpus (an eval store's) has
 * no note; a text some source already carries stays with that source, as its node does.
 */
function applyReference(fold: VaultFold, event: EventOf<'reference'>): FoldEffect {
  if (event.corpus === undefined || fold.references.has(event.sha256)) return NO_EFFECT;
  const ref = {
    corpus: event.corpus,
    source: event.source,
    heading_path: [...event.heading_path],
    text: event.text,
    seq: event.seq,
  };
  fold.references.set(event.sha256, ref);
  return { touched: [referenceNote(ref)] };
}

/** UNKNOWN_EVENT_TYPE naming the event's seq: a projector refuses what it does not know, loudly. */
function unknownEventType(event: unknown): MemError {
  const { type, seq } = (event ?? {}) as { type?: unknown; seq?: unknown };
  return new MemError(
    'UNKNOWN_EVENT_TYPE',
    `vault projector: seq ${String(seq)}: unknown event type ${JSON.stringify(type)}`,
    { seq, type },
  );
}
