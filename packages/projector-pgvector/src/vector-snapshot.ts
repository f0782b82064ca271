import type { ChangeCount } from './backend/sql.js';
import type { RecallRequest, VectorHit, VectorKind, VectorLevel } from './recall-types.js';

/**
 * A filter that lets at most this many live vectors through is answered by an exact scan
 * (recall_vectors' p_exact_max, migrations/postgres/0009): on every backend, and here from the copy.
 */
export const EXACT_SCAN_MAX = 1000;
/** Extra candidates a recall fetches beyond its limit (recall_vectors' p_fetch = limit + this). */
export const TIE_SLACK = 16;
/**
 * A project with more live vectors than this (both kinds) is copied without its reference
 * passages (R), and not at all when the rest is larger still: those recalls ask the database.
 */
const PROJECT_ROWS_MAX = 4 * EXACT_SCAN_MAX;
/**
 * Rows copied in all (~3 kB each at 768 dimensions, so ~49 MB): past this, projects not yet
 * copied ask the database. 16 x, not 8 x: the query bench's 100 k store has 2,880 live memory
 * lines in each of 5 projects, and each project's recall of them was an exact scan in PGlite.
 */
const TOTAL_ROWS_MAX = 16 * EXACT_SCAN_MAX;

interface Row {
  level: VectorLevel;
  sha256: string;
  vector: Float32Array;
  /** Σ x², summed as pgvector sums it (see cosineDistance). */
  norm: number;
}

/**
 * A project's live rows, by kind, and whether its R rows are among them (a large project is
 * copied without them); null: too many to copy, or one the copy cannot score as pgvector does.
 */
type ProjectRows = (Record<VectorKind, Row[]> & { withR: boolean }) | null;

/** What a read that writes nothing needs of the database (SqlClient.read and SqlClient.changes). */
export interface SnapshotSource {
  changes: ChangeCount;
  read: <T>(text: string, params: readonly unknown[]) => Promise<T[]>;
  /** The projection's schema, quoted. */
  schema: string;
}

/**
 * An in-process copy of the live vectors of the projects a process recalls from, for the
 * embedded PGlite alone (issue 15 target 3). Why: a recall of a few hundred vectors cost ~3.8 ms
 * of CPU in PGlite (WASM, a statement's fixed cost, plpgsql), 40 % of a query; the same exact scan
 * here costs microseconds per vector. The projection stays the source: a project is copied from
 * it, and only while no statement but reads has run on the database since (SqlClient.changes:
 * this process opened the PGlite and is the only writer), so a catch-up, rebuild or purge drops
 * the copy. A project is copied the second time it is recalled in one such span, so a one-shot
 * query never pays for a copy. The answer is the database's: only filters its exact scan answers
 * (at most EXACT_SCAN_MAX rows) are answered here, with pgvector's float arithmetic, ordered by
 * the same key; anything else, or a write in flight, returns null and the database answers.
 * Project isolation holds as in SQL: a request reads the rows of its projects alone.
 */
export class VectorSnapshot {
  /** `changes.started` when the copy was made; -1: none. */
  private stamp = -1;
  private readonly projects = new Map<string, ProjectRows>();
  /**
   * Per kind, the projects holding a live vector of it (recall_vectors asks projection_state the
   * same): while one outside a request's projects does, the database answers it by an exact scan
   * at any size, so the copy may answer it too.
   */
  private holders: Record<VectorKind, ReadonlySet<string>> | null = null;
  /** Projects recalled once since `stamp`: the next recall copies them. */
  private readonly asked = new Set<string>();
  private rows = 0;
  private loading = false;

  constructor(private readonly source: SnapshotSource) {}

  /** Hits per request as recall_vectors' exact scan gives them, or null: ask the database. */
  async recallEach(
    vector: Float32Array,
    requests: readonly RecallRequest[],
    limit: number,
  ): Promise<VectorHit[][] | null> {
    const { changes } = this.source;
    if (changes.started !== changes.finished) return null; // a write in flight: wait for it there
    if (changes.started !== this.stamp) this.reset(changes.started);
    const wanted = [...new Set(requests.flatMap((r) => r.filter.projects))];
    const missing = wanted.filter((p) => !this.projects.has(p));
    if (missing.length > 0) {
      if (this.loading || !missing.every((p) => this.asked.has(p))) {
        for (const p of missing) this.asked.add(p);
        return null;
      }
      const copied = await this.copy(missing);
      if (copied === null) return null;
      return answer(
        vector,
        requests,
        limit,
        (p) => copied.get(p) ?? this.projects.get(p),
        this.holders,
      );
    }
    return answer(vector, requests, limit, (p) => this.projects.get(p), this.holders);
  }

  private reset(stamp: number): void {
    this.stamp = stamp;
    this.projects.clear();
    this.asked.clear();
    this.rows = 0;
    this.holders = null;
  }

  /**
   * Copies `projects` from the database: their rows, or null when a statement other than a
   * read started or finished meanwhile (then nothing is kept and the database answers).
   */
  private async copy(projects: readonly string[]): Promise<Map<string, ProjectRows> | null> {
    const { changes, read, schema } = this.source;
    const before = { started: changes.started, finished: changes.finished };
    this.loading = true;
    try {
      // One statement: each project's live rows (and its R rows among them), then, per kind, the
      // projects holding a live vector of it, as recall_vectors asks projection_state.
      const facts = await read<{
        what: 'size' | VectorKind;
        project: string;
        n: number;
        r: number;
      }>(
        `SELECT 'size' AS what, project, count(*)::integer AS n,
                (count(*) FILTER (WHERE level = 'R'))::integer AS r
         FROM ${schema}.memory_vector WHERE live AND project = ANY($1::text[]) GROUP BY project
         UNION ALL
         SELECT k.kind, ps.project, 0, 0
         FROM ${schema}.projection_state ps CROSS JOIN (VALUES ('text'), ('symptom')) k(kind)
         WHERE EXISTS (SELECT 1 FROM ${schema}.memory_vector o WHERE o.kind = k.kind AND o.live AND o.project = ps.project)`,
        [projects],
      );
      const counts = facts.filter((f) => f.what === 'size');
      const holders = {
        text: new Set(facts.filter((f) => f.what === 'text').map((f) => f.project)),
        symptom: new Set(facts.filter((f) => f.what === 'symptom').map((f) => f.project)),
      };
      const sizes = new Map(counts.map((c) => [c.project, c]));
      const small: string[] = [];
      const withR = new Set<string>();
      let total = this.rows;
      for (const p of projects) {
        const { n, r } = sizes.get(p) ?? { n: 0, r: 0 };
        const whole = n <= PROJECT_ROWS_MAX;
        const rows = whole ? n : n - r;
        if (rows > PROJECT_ROWS_MAX || total + rows > TOTAL_ROWS_MAX) continue;
        small.push(p);
        if (whole) withR.add(p);
        total += rows;
      }
      // vector_send is pgvector's binary form (int16 dims, int16 unused, float4s, big-endian);
      // base64 text, because PGlite decodes a bytea column character by character (4x the CPU).
      const rows =
        small.length === 0
          ? []
          : await read<{
              project: string;
              level: VectorLevel;
              kind: VectorKind;
              sha: string;
              b: string;
            }>(
              `SELECT project, level, kind, node_sha AS sha, encode(vector_send(embedding), 'base64') AS b
               FROM ${schema}.memory_vector WHERE live AND project = ANY($1::text[])
                 AND (level <> 'R' OR project = ANY($2::text[]))`,
              [small, [...withR]],
            );
      if (changes.started !== before.started || changes.finished !== before.finished) return null;
      const copied = new Map<string, ProjectRows>(projects.map((p) => [p, null]));
      for (const p of small) copied.set(p, { text: [], symptom: [], withR: withR.has(p) });
      for (const r of rows) {
        const own = copied.get(r.project);
        if (!own) continue;
        const row = decode(r);
        // A zero or non-finite vector has no cosine distance pgvector and this agree on: not copied.
        if (row === null) copied.set(r.project, null);
        else own[r.kind].push(row);
      }
      for (const [p, own] of copied) {
        this.projects.set(p, own);
        if (own) this.rows += own.text.length + own.symptom.length;
      }
      this.holders = holders;
      return copied;
    } finally {
      this.loading = false;
    }
  }
}

function decode(r: { level: VectorLevel; sha: string; b: string }): Row | null {
  const bytes = Buffer.from(r.b, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dims = view.getInt16(0);
  const vector = new Float32Array(dims);
  for (let i = 0; i < dims; i++) vector[i] = view.getFloat32(4 + 4 * i);
  const norm = sumOfSquares(vector);
  if (!(norm > 0) || !Number.isFinite(norm)) return null;
  return { level: r.level, sha256: r.sha, vector, norm };
}

/** Σ x² in float32, element by element, as pgvector's vector_cosine_distance sums it. */
function sumOfSquares(v: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum = Math.fround(sum + Math.fround(v[i]! * v[i]!));
  return sum;
}

/**
 * pgvector 0.8's `<=>` bit for bit, for each row: float32 products summed in float32 in index
 * order, the similarity divided in double by sqrt(Σa² · Σb²), clamped to [-1, 1], subtracted
 * from 1. (JavaScript rounds each step to float32 with Math.fround; a float32 product or sum
 * computed in double and rounded once is the float32 result. Checked against PGlite's own
 * distances in vector-snapshot.int.spec.ts.) Four rows at a time: each row's sum is one chain of
 * dependent additions, so four independent chains keep the CPU busy (~2-5x faster, measured),
 * and each row's additions stay in index order.
 *
 * The sums run over the query vector's non-zero dimensions only (the hash embedder's are ~90 %
 * zeros: 2,880 rows 3.7 → 0.57 ms), still in index order: a zero dimension's product is ±0 (every
 * copied row is finite: its norm is), and adding ±0 to a float32 sum that starts at +0 never
 * changes it, so the distances are the same bits (cosine-distances.unit.spec.ts). A dense vector
 * goes the same way over all its dimensions (~5 % slower than a direct loop, measured; one loop).
 */
export function cosineDistances(a: Float32Array, aNorm: number, rows: readonly Row[]): number[] {
  const dots = dotsOver(a, nonZeroDimensions(a), rows);
  return rows.map((row, k) => {
    let similarity = dots[k]! / Math.sqrt(aNorm * row.norm);
    if (similarity > 1) similarity = 1;
    else if (similarity < -1) similarity = -1;
    return 1 - similarity;
  });
}

/** The indices of `a`'s non-zero dimensions (a -0 is zero), in index order. */
function nonZeroDimensions(a: Float32Array): Int32Array {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== 0) n += 1;
  const out = new Int32Array(n);
  for (let i = 0, j = 0; i < a.length; i++) if (a[i] !== 0) out[j++] = i;
  return out;
}

/** Each row's float32 dot product with `a` over `dims` (a's non-zero dimensions), in order. */
function dotsOver(a: Float32Array, dims: Int32Array, rows: readonly Row[]): number[] {
  const dots = new Array<number>(rows.length);
  const f = Math.fround;
  const x = Float32Array.from(dims, (i) => a[i]!);
  let r = 0;
  for (; r + 4 <= rows.length; r += 4) {
    const [v0, v1, v2, v3] = [
      rows[r]!.vector,
      rows[r + 1]!.vector,
      rows[r + 2]!.vector,
      rows[r + 3]!.vector,
    ];
    let [d0, d1, d2, d3] = [0, 0, 0, 0];
    for (let j = 0; j < dims.length; j++) {
      const i = dims[j]!;
      const xj = x[j]!;
      d0 = f(d0 + f(xj * v0[i]!));
      d1 = f(d1 + f(xj * v1[i]!));
      d2 = f(d2 + f(xj * v2[i]!));
      d3 = f(d3 + f(xj * v3[i]!));
    }
    [dots[r], dots[r + 1], dots[r + 2], dots[r + 3]] = [d0, d1, d2, d3];
  }
  for (; r < rows.length; r++) {
    const v = rows[r]!.vector;
    let dot = 0;
    for (let j = 0; j < dims.length; j++) dot = f(dot + f(x[j]! * v[dims[j]!]!));
    dots[r] = dot;
  }
  return dots;
}

function answer(
  vector: Float32Array,
  requests: readonly RecallRequest[],
  limit: number,
  rowsOf: (project: string) => ProjectRows | undefined,
  holders: Record<VectorKind, ReadonlySet<string>> | null,
): VectorHit[][] | null {
  const chosen: { project: string; rows: Row[]; levels: ReadonlySet<VectorLevel> }[][] = [];
  for (const { kind, filter } of requests) {
    const levels = new Set(filter.levels);
    const mine: (typeof chosen)[number] = [];
    let passed = 0;
    for (const project of new Set(filter.projects)) {
      const own = rowsOf(project);
      if (!own || (!own.withR && levels.has('R'))) return null;
      const rows = own[kind];
      for (const row of rows) if (levels.has(row.level)) passed += 1;
      mine.push({ project, rows, levels });
    }
    // Past EXACT_SCAN_MAX the database walks its HNSW index (only it can give that answer)
    // unless it too scans exactly: fewer rows than it fetches, or another project holds vectors
    // of this kind (recall_vectors, migrations/postgres/0009).
    if (passed > EXACT_SCAN_MAX && passed >= limit + TIE_SLACK) {
      const others = [...(holders?.[kind] ?? [])].some((p) => !filter.projects.includes(p));
      if (!holders || !others) return null;
    }
    chosen.push(mine);
  }
  const norm = sumOfSquares(vector);
  return chosen.map((mine) => {
    const keys: { project: string; row: Row }[] = [];
    for (const { project, rows, levels } of mine)
      for (const row of rows) if (levels.has(row.level)) keys.push({ project, row });
    const distances = cosineDistances(
      vector,
      norm,
      keys.map((k) => k.row),
    );
    return keys
      .map(({ project, row }, k): VectorHit => ({
        project,
        level: row.level,
        sha256: row.sha256,
        distance: distances[k]!,
      }))
      .sort(byDistanceThenKey)
      .slice(0, limit);
  });
}

/** Distance, then project, level and sha byte-wise: the same hits in the same order on every backend. */
export function byDistanceThenKey(a: VectorHit, b: VectorHit): number {
  if (a.distance !== b.distance) return a.distance - b.distance;
  for (const key of ['project', 'level', 'sha256'] as const) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  return 0;
}
