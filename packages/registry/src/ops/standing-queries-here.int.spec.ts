import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isMemError } from '@mem/core';
import { loadStandingQueries } from '@mem/ingest';
import type { RegistryContext } from '../context.js';
import { resolvedStandingQueries, standingQueriesHere } from './standing-queries-here.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The two fields the memo reads of a registry context: where queries live, and the config. */
function contextAt(dir: string): RegistryContext {
  return { engine: { paths: { queriesDir: dir } }, config: {} } as unknown as RegistryContext;
}

const yaml = (source: string, question = 'What broke?') =>
  `project: proj\nsources:\n  - ${source}\nqueries:\n  - id: bugs\n    question: ${question}\n`;

describe('resolvedStandingQueries: the YAML read once per change of its file', () => {
  it('reads the file again only when its stamp moves; a refusal is never kept', () => {
    root = mkdtempSync(join(tmpdir(), 'mem-sq-here-'));
    const queries = join(root, 'queries');
    mkdirSync(join(root, 'sessions'), { recursive: true });
    mkdirSync(queries);
    const file = join(queries, 'proj.yaml');
    writeFileSync(file, yaml('claude:../sessions'));
    let loads = 0;
    const counting: typeof loadStandingQueries = (...args) => {
      loads += 1;
      return loadStandingQueries(...args);
    };
    const ctx = contextAt(queries);
    const first = resolvedStandingQueries(ctx, 'proj', counting);
    expect(resolvedStandingQueries(ctx, 'proj', counting)).toBe(first);
    expect(loads).toBe(1);
    // Another registry keeps its own.
    resolvedStandingQueries(contextAt(queries), 'proj', counting);
    expect(loads).toBe(2);

    writeFileSync(file, yaml('claude:../sessions', 'What changed?'));
    utimesSync(file, 1_800_000_000, 1_800_000_000);
    expect(resolvedStandingQueries(ctx, 'proj', counting).queries[0]?.question).toBe(
      'What changed?',
    );
    expect(loads).toBe(3);

    // A source that is not here is refused each time, and seen once it exists.
    writeFileSync(file, yaml('claude:../later'));
    utimesSync(file, 1_800_000_100, 1_800_000_100);
    for (let i = 0; i < 2; i += 1) {
      let error: unknown;
      try {
        resolvedStandingQueries(ctx, 'proj', counting);
      } catch (e) {
        error = e;
      }
      expect(isMemError(error) && error.code === 'CONFIG_INVALID').toBe(true);
    }
    mkdirSync(join(root, 'later'));
    expect(resolvedStandingQueries(ctx, 'proj', counting).sources[0]?.dir).toBe(
      join(root, 'later'),
    );
    expect(loads).toBe(6);
  });

  it('never keeps a file with a glob source: a session file made later is listed on the next call', () => {
    root = mkdtempSync(join(tmpdir(), 'mem-sq-glob-'));
    const queries = join(root, 'queries');
    mkdirSync(join(root, 'sessions'), { recursive: true });
    mkdirSync(queries);
    writeFileSync(join(root, 'sessions', 'a.jsonl'), '');
    writeFileSync(join(queries, 'proj.yaml'), yaml('claude:../sessions/*.jsonl'));
    const ctx = contextAt(queries);
    expect(resolvedStandingQueries(ctx, 'proj', loadStandingQueries).sources[0]?.files).toEqual([
      join(root, 'sessions', 'a.jsonl'),
    ]);
    writeFileSync(join(root, 'sessions', 'b.jsonl'), '');
    expect(resolvedStandingQueries(ctx, 'proj', loadStandingQueries).sources[0]?.files).toEqual([
      join(root, 'sessions', 'a.jsonl'),
      join(root, 'sessions', 'b.jsonl'),
    ]);
  });

  it('a source removed after the file was read is not here: the project is not judged, as a fresh process says', () => {
    // A warm `mem serve` kept the resolution and judged every line of the removed directory
    // `unknown`, while a fresh CLI read the file again and judged none (stop-33 walk).
    root = mkdtempSync(join(tmpdir(), 'mem-sq-gone-'));
    const queries = join(root, 'queries');
    mkdirSync(join(root, 'sessions'), { recursive: true });
    writeFileSync(join(root, 'single.jsonl'), '');
    mkdirSync(queries);
    for (const source of ['claude:../sessions', 'loop:../single.jsonl']) {
      writeFileSync(join(queries, 'proj.yaml'), yaml(source));
      utimesSync(join(queries, 'proj.yaml'), 1_800_000_200, 1_800_000_200);
      const warm = contextAt(queries);
      expect(standingQueriesHere(warm, 'proj', loadStandingQueries)).not.toBeNull();
      const gone = source.endsWith('.jsonl') ? join(root, 'single.jsonl') : join(root, 'sessions');
      rmSync(gone, { recursive: true });
      const fresh = standingQueriesHere(contextAt(queries), 'proj', loadStandingQueries);
      expect(fresh, `${source}: a fresh process`).toBeNull();
      expect(standingQueriesHere(warm, 'proj', loadStandingQueries), `${source}: warm`).toBe(fresh);
    }
    // Made again: judged again, in the warm context too.
    mkdirSync(join(root, 'sessions'));
    writeFileSync(join(queries, 'proj.yaml'), yaml('claude:../sessions'));
    utimesSync(join(queries, 'proj.yaml'), 1_800_000_300, 1_800_000_300);
    const warm = contextAt(queries);
    expect(standingQueriesHere(warm, 'proj', loadStandingQueries)).not.toBeNull();
    rmSync(join(root, 'sessions'), { recursive: true });
    expect(standingQueriesHere(warm, 'proj', loadStandingQueries)).toBeNull();
    mkdirSync(join(root, 'sessions'));
    expect(standingQueriesHere(warm, 'proj', loadStandingQueries)?.sources[0]?.dir).toBe(
      join(root, 'sessions'),
    );
  });
});
