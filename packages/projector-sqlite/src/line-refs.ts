import type Database from 'better-sqlite3';

/** A line or memory sha a correction's ref may name, and which of the two it is. */
export interface LineRefRow {
  sha256: string;
  /** `memory` where a memory has the sha (a one-line memory's line shares it), else `line`. */
  kind: 'line' | 'memory';
}

/** Resolving a ref (a sha prefix as `mem query` prints it) in the store, not by folding the log. */
export interface LineRefReader {
  /**
   * The distinct L1/L2 line and memory shas of `project` that start with `prefix` (lowercase
   * hex), forgotten and superseded ones too: what a ref may name. By sha; one range of the
   * node's (project, sha256) key.
   */
  lineRefs(project: string, prefix: string): LineRefRow[];
}

export function lineRefReader(db: Database.Database): LineRefReader {
  // '~' sorts after every hex digit: [prefix, prefix~) is every sha starting with the prefix.
  const refs = db.prepare(`SELECT sha256,
      CASE WHEN max(kind = 'memory') = 1 THEN 'memory' ELSE 'line' END AS kind
    FROM node
    WHERE project = @project AND sha256 >= @prefix AND sha256 < @prefix || '~'
      AND level IN ('L1', 'L2') AND kind IN ('line', 'memory')
    GROUP BY sha256 ORDER BY sha256`);
  return {
    lineRefs: (project, prefix) => refs.all({ project, prefix }) as LineRefRow[],
  };
}
