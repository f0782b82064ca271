import { refuseControlText, terminalSafe, type Payload } from '@mem/core';
import type { CorpusFile, SkippedFile } from './corpus-files.js';
import type { CorpusState, LiveSources } from './corpus-state.js';
import { documentPassages } from './passages.js';

/** What one sync of a corpus found, file by file, and what it wrote. */
export interface CorpusSyncReport {
  name: string;
  root: string;
  globs: string[];
  files: { added: string[]; changed: string[]; removed: string[]; unchanged: string[] };
  skipped: SkippedFile[];
  /**
   * Passages not written because their exact text was tombstoned before (a file changed back to
   * an earlier version): a tombstone refuses resurfacing, so that text stays out of recall.
   */
  refused: { uri: string; sha256: string }[];
  passages_written: number;
  passages_tombstoned: number;
}

/**
 * The pure half of `mem ref add|sync`: the events that bring the log's view of corpus `name` to
 * the files just read. Identity is (source URI, sha): an unchanged file plans nothing; a changed
 * one tombstones the passages it no longer has and writes the new ones; a file gone from the
 * root tombstones all of its. A skipped file keeps what it had (present but unreadable is not
 * removed). A sha another live source still holds is not tombstoned — a tombstone names a
 * text, and that text is still some file's.
 */
export function planCorpusSync(
  state: CorpusState,
  registration: { name: string; root: string; globs: string[] },
  read: { files: CorpusFile[]; skipped: SkippedFile[] },
): { payloads: Payload[]; report: CorpusSyncReport } {
  const { name } = registration;
  const before: LiveSources = state.live.get(name) ?? new Map<string, Set<string>>();
  const after: LiveSources = new Map<string, Set<string>>();
  const report: CorpusSyncReport = {
    ...registration,
    files: { added: [], changed: [], removed: [], unchanged: [] },
    skipped: read.skipped,
    refused: [],
    passages_written: 0,
    passages_tombstoned: 0,
  };
  const writes: Payload[] = [];
  const dropped: { uri: string; sha: string; why: string }[] = [];

  for (const file of read.files) {
    const old = before.get(file.uri) ?? new Set<string>();
    const passages = documentPassages(file.text, file.markdown).filter((p) => {
      if (old.has(p.sha256) || !state.tombstoned.has(p.sha256)) return true;
      report.refused.push({ uri: file.uri, sha256: p.sha256 });
      return false;
    });
    const next = new Set(passages.map((p) => p.sha256));
    after.set(file.uri, next);
    const same = next.size === old.size && [...next].every((sha) => old.has(sha));
    if (same) {
      report.files.unchanged.push(file.uri);
      continue;
    }
    (old.size === 0 ? report.files.added : report.files.changed).push(file.uri);
    for (const p of passages) {
      if (old.has(p.sha256)) continue;
      const payload: Payload = {
        type: 'reference',
        level: 'R',
        source: file.uri,
        heading_path: [...p.heading_path],
        text: p.text,
        sha256: p.sha256,
        corpus: name,
      };
      // A file's name and its headings are untrusted text, refused as every write refuses a
      // control or bidi character; only the passage is stored verbatim. Trigger: a doc set with
      // a file named `a\x1b[31m….md` or a heading holding U+202E. Why: `source` and
      // `heading_path` were stored and shown as they were. Outcome: INVALID_INPUT naming the
      // file (escaped) and the field, nothing of the corpus written; rename the file or fix it.
      refuseControlText(payload, `reference ${terminalSafe(file.uri)}`, ['text'], {
        file: terminalSafe(file.uri),
        corpus: name,
      });
      writes.push(payload);
    }
    for (const sha of old) if (!next.has(sha)) dropped.push({ uri: file.uri, sha, why: 'changed' });
  }
  const skippedUris = new Set(read.skipped.map((s) => s.uri));
  for (const [uri, shas] of before) {
    if (after.has(uri)) continue;
    if (skippedUris.has(uri)) {
      after.set(uri, shas);
      continue;
    }
    report.files.removed.push(uri);
    for (const sha of shas) dropped.push({ uri, sha, why: 'removed' });
  }

  const tombstones = planTombstones(state, name, after, dropped);
  report.passages_written = writes.length;
  report.passages_tombstoned = tombstones.length;
  return { payloads: [...tombstones, ...writes], report };
}

/** Tombstones for the dropped shas no live source (this corpus after the sync, or another corpus) still holds. */
export function planTombstones(
  state: CorpusState,
  corpus: string,
  after: LiveSources,
  dropped: readonly { uri: string; sha: string; why: string }[],
): Payload[] {
  const held = new Set<string>();
  for (const [other, sources] of state.live)
    if (other !== corpus)
      for (const shas of sources.values()) for (const sha of shas) held.add(sha);
  for (const shas of after.values()) for (const sha of shas) held.add(sha);
  const out: Payload[] = [];
  const done = new Set<string>();
  for (const { uri, sha, why } of dropped) {
    if (held.has(sha) || done.has(sha)) continue;
    done.add(sha);
    out.push({ type: 'tombstone', target: sha, reason: `reference ${corpus}:${uri} ${why}` });
  }
  return out;
}
