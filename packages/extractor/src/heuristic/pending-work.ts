import type { ChunkRecord, ControllerInput } from '../controller.js';
import { editsNamedFile, namedFiles } from './carried-out.js';
import { recordSections, sectionSignals, type Signal } from './summary-signals.js';

/*
 * A compaction summary (or an agent's report) lists what is still to do under "Pending tasks",
 * "Current state" or "Next steps". Such an item is the summary writer's view at its cut point;
 * the session goes on, and often does the task right after ("Need to update the documentation
 * in `docs/hooks.md` …", then an edit of docs/hooks.md). A person reading the session on would
 * not list it as open. What shows it was done, without a model: a later edit of the file the
 * item names, whose result came back without an error — the rule a user's request that names a
 * file already follows (carried-out.ts).
 */

/** Whether a pending item is done by `later`, the records that follow its summary. */
export function doneLater(signal: Signal, later: readonly ChunkRecord[]): boolean {
  return signal.family === 'open' && editsNamedFile(later, namedFiles(signal.text));
}

/** The pending items of a chunk's summaries and reports that name a file and are not done in it. */
function pendingItems(records: readonly ChunkRecord[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  records.forEach((record, i) => {
    const { sections } = recordSections(record);
    if (sections.length === 0) return;
    for (const signal of sectionSignals(sections).signals) {
      const files = namedFiles(signal.text);
      if (signal.family !== 'open' || files.length === 0) continue;
      if (!doneLater(signal, records.slice(i + 1))) out.set(signal.text, files);
    }
  });
  return out;
}

/**
 * The pending items each transcript's chunks left open, per question: a later chunk of the same
 * transcript that edits the named file carries the item out. Trigger: a remembered line that a
 * summary of an earlier chunk listed as pending and named a file in. Outcome: `done` returns it,
 * and the caller closes it as it closes an answered question (it leaves with the next update).
 */
export function pendingWork(): {
  done(question: string, chunk: ControllerInput['chunk'], lines: readonly string[]): string[];
} {
  const open = new Map<
    string,
    { text: string; before: Map<string, string[]>; after: Map<string, string[]> }
  >();
  return {
    done(question, chunk, lines) {
      if (chunk.source === undefined) return [];
      const key = `${question}\u0000${chunk.source}`;
      const last = open.get(key);
      // The same chunk offered again (a retried answer) reads the state it found, not its own.
      const before =
        last?.text === chunk.text ? last.before : (last?.after ?? new Map<string, string[]>());
      const after = new Map(before);
      const done = lines.filter((line) => {
        const files = before.get(line);
        return files !== undefined && editsNamedFile(chunk.records, files);
      });
      for (const line of done) after.delete(line);
      for (const [text, files] of pendingItems(chunk.records)) after.set(text, files);
      open.set(key, { text: chunk.text, before, after });
      return done;
    },
  };
}
