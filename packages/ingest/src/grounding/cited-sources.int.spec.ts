import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunkPolicy, chunks, qwenTokenizer, type Chunk, type SourceRecord } from '@mem/chunk';
import { sourceForPath } from '@mem/sources';
import type { StandingQueries } from '../standing-queries.js';
import {
  checkCitedSources,
  citedSpanDigests,
  fsGroundingIo,
  type GroundingIo,
} from './cited-sources.js';
import { citedKey, type CitedChunk } from './source-grounding.js';

/*
 * The bounded freshness check of cited chunks (issue 13 §4) on real session files: a project
 * of many Claude sessions of which one is cited. The file system is reached through a counting
 * seam over the real one, so the test sees every stat, every file read and every record read.
 */
const fixture = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  'test',
  'fixtures',
  'transcripts',
  'claude',
  'spotter-short.jsonl',
);
const FIXTURE_SESSION = '55604662-cf2a-4331-851a-ec234028f8ca';
const SESSIONS = 12;
const TOKENS = 64;
// Each copy its own session: every uuid in it (the session's, each entry's) given the copy's prefix.
const UUID = /[0-9a-f]{8}(-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g;
const prefix = (n: number) => String(n).padStart(8, '0');
const id = (n: number) => FIXTURE_SESSION.replace(UUID, `${prefix(n)}$1`);

let root: string;
let dir: string;
let config: StandingQueries;
let cachePath: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-cited-'));
  dir = join(root, 'claude');
  mkdirSync(dir);
  const text = readFileSync(fixture, 'utf8');
  for (let n = 0; n < SESSIONS; n++)
    writeFileSync(join(dir, `${id(n)}.jsonl`), text.replace(UUID, `${prefix(n)}$1`));
  config = {
    file: join(root, 'queries', 'p.yaml'),
    project: 'p',
    sources: [{ entry: `claude:${dir}`, kind: 'claude', dir }],
    queries: [],
    synthesis: null,
    chunkTokens: TOKENS,
    memoryBudget: 1024,
  };
  cachePath = join(root, 'cache', 'grounding', 'p.json');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The session's chunks as ingest cuts them, each a cited chunk. */
async function chunksOf(file: string): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for await (const c of chunks(
    sourceForPath(file, 'claude'),
    chunkPolicy({ maxTokens: TOKENS }),
    qwenTokenizer(),
  ))
    out.push(c);
  return out;
}

const cited = (c: Chunk): CitedChunk => ({
  source: c.source,
  start: c.span[0],
  end: c.span[1],
  sha256: c.sha256,
  chunkTokens: TOKENS,
});

function counting() {
  const calls = { stat: 0, reads: [] as string[][], records: 0, list: 0, scan: 0 };
  const io: GroundingIo = {
    stat: (path) => {
      calls.stat += 1;
      return fsGroundingIo.stat(path);
    },
    records: (kind, files) => {
      calls.reads.push([...files]);
      const inner = fsGroundingIo.records(kind, files);
      return (async function* (): AsyncGenerator<SourceRecord> {
        for await (const record of inner) {
          calls.records += 1;
          yield record;
        }
      })();
    },
    list: (source) => {
      calls.list += 1;
      return fsGroundingIo.list(source);
    },
    scan: (source) => {
      calls.scan += 1;
      return fsGroundingIo.scan(source);
    },
  };
  return { io, calls };
}

/** Rewrites the string in a file's JSONL line that holds `text`'s start. */
function rewriteLine(file: string, line: number, text: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const probe = text.slice(0, 24);
  const edit = (value: unknown): unknown =>
    typeof value === 'string'
      ? value.includes(probe)
        ? value.replace(probe, `${probe} (rewritten)`)
        : value
      : Array.isArray(value)
        ? value.map(edit)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, edit(v)]))
          : value;
  const before = lines[line - 1]!;
  lines[line - 1] = JSON.stringify(edit(JSON.parse(before)));
  expect(lines[line - 1]).not.toBe(before);
  writeFileSync(file, lines.join('\n'));
}

const target = () => join(dir, `${id(5)}.jsonl`);

describe('checkCitedSources: bounded by what is cited', () => {
  it('reads only the cited session, up to the cited span, once; then only stats it', async () => {
    const all = await chunksOf(target());
    expect(all.length).toBeGreaterThan(2);
    const first = cited(all[0]!);
    const { io, calls } = counting();

    const once = await checkCitedSources(config, [first], { cachePath, io });
    expect(once.get(citedKey(first))).toBe('unchanged');
    expect(calls.reads).toEqual([[target()]]);
    expect(calls.records).toBe(first.end);
    expect(calls.stat).toBe(1);
    expect(calls.scan).toBe(0);

    const again = counting();
    const twice = await checkCitedSources(config, [first], { cachePath, io: again.io });
    expect(twice.get(citedKey(first))).toBe('unchanged');
    expect(again.calls).toEqual({ stat: 1, reads: [], records: 0, list: 0, scan: 0 });
  });

  it('re-reads a grown session once and finds its cited span unchanged', async () => {
    const first = cited((await chunksOf(target()))[0]!);
    await checkCitedSources(config, [first], { cachePath });
    const last = readFileSync(target(), 'utf8').trimEnd().split('\n').at(-1)!;
    appendFileSync(target(), `${last.replace(/"uuid":"[^"]+"/, '"uuid":"grown-0001"')}\n`);

    const { io, calls } = counting();
    const grown = await checkCitedSources(config, [first], { cachePath, io });
    expect(grown.get(citedKey(first))).toBe('unchanged');
    expect(calls.reads).toHaveLength(1);
    expect(calls.records).toBe(first.end);
  });

  it('is changed when a record in the cited span is rewritten, not when one after it is', async () => {
    const all = await chunksOf(target());
    const [first, last] = [all[0]!, all.at(-1)!];
    const record = last.records.at(-1)!;
    const lastRecord = all
      .flatMap((c) => c.records)
      .find((r) => r.ordinal === record.ordinal && r.part === undefined);
    const text = last.text.slice(lastRecord!.textRange[0], lastRecord!.textRange[1]);
    await checkCitedSources(config, [cited(first)], { cachePath });

    rewriteLine(target(), record.provenance.line!, text);
    const after = await checkCitedSources(config, [cited(first)], { cachePath });
    expect(after.get(citedKey(cited(first)))).toBe('unchanged');

    const inSpan = first.records[0]!;
    rewriteLine(
      target(),
      inSpan.provenance.line!,
      first.text.slice(inSpan.textRange[0], inSpan.textRange[1]),
    );
    const changed = await checkCitedSources(config, [cited(first)], { cachePath });
    expect(changed.get(citedKey(cited(first)))).toBe('changed');
  });

  it('is gone when the session is deleted, and stays gone without reading the other sessions', async () => {
    const first = cited((await chunksOf(target()))[0]!);
    await checkCitedSources(config, [first], { cachePath });
    rmSync(target());
    for (let run = 0; run < 2; run++) {
      const { io, calls } = counting();
      const gone = await checkCitedSources(config, [first], { cachePath, io });
      expect(gone.get(citedKey(first))).toBe('gone');
      expect(calls.reads).toEqual([]);
      expect(calls.scan).toBe(0);
    }
  });

  it('finds a session its file name does not name by one scan, then by its stat alone', async () => {
    const renamed = join(dir, 'spotter.jsonl');
    writeFileSync(renamed, readFileSync(target(), 'utf8'));
    rmSync(target());
    const first = cited((await chunksOf(renamed))[0]!);
    const { io, calls } = counting();
    expect((await checkCitedSources(config, [first], { cachePath, io })).get(citedKey(first))).toBe(
      'unchanged',
    );
    expect(calls.scan).toBe(1);
    const again = counting();
    await checkCitedSources(config, [first], { cachePath, io: again.io });
    expect(again.calls).toEqual({ stat: 1, reads: [], records: 0, list: 0, scan: 0 });
  });
  it('finds a session its file name does not name again once it is back: gone is not kept past a change of the listing', async () => {
    // Walk of stop 34: a Claude sidechain's session (no file is named for it) was judged gone
    // while its file was moved away, and read `unknown` forever after the file came back.
    const renamed = join(dir, 'spotter.jsonl');
    writeFileSync(renamed, readFileSync(target(), 'utf8'));
    rmSync(target());
    const first = cited((await chunksOf(renamed))[0]!);
    const judge = async () => {
      const { io, calls } = counting();
      return {
        state: (await checkCitedSources(config, [first], { cachePath, io })).get(citedKey(first)),
        calls,
      };
    };
    expect((await judge()).state).toBe('unchanged');
    const away = join(root, 'away.jsonl');
    renameSync(renamed, away);
    expect((await judge()).state).toBe('gone');
    // Still away: gone without another scan of every session.
    const still = await judge();
    expect([still.state, still.calls.scan]).toEqual(['gone', 0]);
    renameSync(away, renamed);
    const back = await judge();
    expect([back.state, back.calls.scan]).toEqual(['unchanged', 1]);
    const settled = await judge();
    expect([settled.state, settled.calls.scan, settled.calls.list]).toEqual(['unchanged', 0, 0]);
  });
});

describe('citedSpanDigests with the grounding cache (recall of a confirmed line)', () => {
  it('reads and tokenizes a span once while its session keeps its stamp, again after a change', async () => {
    // Recall re-read the source and loaded the tokenizer (~1.1 s CPU) on every answer of a
    // confirmed line whose source changed once; the digest is the same while the stamp holds.
    const all = await chunksOf(target());
    const first = cited(all[0]!);
    await checkCitedSources(config, [first], { cachePath });
    let tokenizers = 0;
    const tokenizer = () => {
      tokenizers += 1;
      return qwenTokenizer();
    };
    const read = async () => {
      const { io, calls } = counting();
      const digests = await citedSpanDigests(config, [first], { cachePath, io, tokenizer });
      return { digest: digests.get(citedKey(first)), reads: calls.reads.length };
    };
    const once = await read();
    expect(once.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(once.reads).toBe(1);
    expect(await read()).toEqual({ digest: once.digest, reads: 0 });
    expect(tokenizers).toBe(1);
    // Uncached (a confirm records what the span reads now): read again, same digest.
    expect((await citedSpanDigests(config, [first], { tokenizer })).get(citedKey(first))).toBe(
      once.digest,
    );

    const inSpan = all[0]!.records[0]!;
    rewriteLine(
      target(),
      inSpan.provenance.line!,
      all[0]!.text.slice(inSpan.textRange[0], inSpan.textRange[1]),
    );
    await checkCitedSources(config, [first], { cachePath });
    const changed = await read();
    expect(changed.reads).toBe(1);
    expect(changed.digest).not.toBe(once.digest);
    expect(await read()).toEqual({ digest: changed.digest, reads: 0 });
  });
});

describe('checkCitedSources over Codex rollouts', () => {
  const rollout = join(
    import.meta.dirname,
    '..',
    '..',
    '..',
    'sources',
    'src',
    'codex',
    '__fixtures__',
    'sessions',
    '2025',
    '09',
    '20',
    'rollout-2025-09-20T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl',
  );
  const session = (n: number) => `0199a1b2-c3d4-7e5f-8a9b-${String(n).padStart(12, '0')}`;

  it('finds the cited session by its rollout name: one file read, no scan of the others', async () => {
    const codex = join(root, 'codex', '2025', '09', '20');
    mkdirSync(codex, { recursive: true });
    const text = readFileSync(rollout, 'utf8');
    for (let n = 0; n < SESSIONS; n++)
      writeFileSync(
        join(codex, `rollout-2025-09-20T10-00-${String(n).padStart(2, '0')}-${session(n)}.jsonl`),
        text.replaceAll('0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', session(n)),
      );
    const cwd = join(root, 'codex');
    const codexConfig: StandingQueries = {
      ...config,
      sources: [{ entry: 'codex:2025', kind: 'codex', dir: cwd }],
    };
    const file = join(codex, `rollout-2025-09-20T10-00-07-${session(7)}.jsonl`);
    const out: Chunk[] = [];
    for await (const c of chunks(
      sourceForPath(file, 'codex'),
      chunkPolicy({ maxTokens: TOKENS }),
      qwenTokenizer(),
    ))
      out.push(c);
    const first = cited(out[0]!);
    expect(first.source).toBe(`codex:${session(7)}`);

    const { io, calls } = counting();
    const judged = await checkCitedSources(codexConfig, [first], { cachePath, io });
    expect(judged.get(citedKey(first))).toBe('unchanged');
    expect(calls.reads).toEqual([[file]]);
    expect(calls.scan).toBe(0);
  });
});
