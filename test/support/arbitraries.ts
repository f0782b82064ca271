import fc from 'fast-check';
import { contentSha256, itemId, lineSignatures, type Payload, uniformLines } from '@mem/core';
import { termHashes } from '@mem/engine';

const WORDS = [
  'kong',
  'buffer',
  'body',
  'ingress',
  'flake',
  'postgres',
  'volume',
  'mount',
  'probe',
  'retry',
  'timeout',
  'cache',
  'lock',
  'fsync',
  'decision',
  'rejected',
  'because',
  'fixed',
  'root',
  'cause',
];

const sentence = fc
  .array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 9 })
  .map((words) => `${words.join(' ')}.`);

/** Raw error lines a memory line may have been drawn from; index 2 is none. */
const FAILURES: readonly (string | undefined)[] = [
  'npm ERR! ERESOLVE unable to resolve dependency tree',
  "2026-08-19T09:12:33Z ENOENT: no such file or directory, open '/home/ci/app/config.json'",
  undefined,
];

const QUERIES = ['infra-root-causes', 'architecture-decisions', 'open-questions'] as const;

interface RunPlan {
  query: (typeof QUERIES)[number];
  steps: { update: boolean; text: string; memory: string; dropOldest: boolean }[];
  finished: boolean;
}

const runPlan: fc.Arbitrary<RunPlan> = fc.record({
  query: fc.constantFrom(...QUERIES),
  steps: fc.array(
    fc.record({ update: fc.boolean(), text: sentence, memory: sentence, dropOldest: fc.boolean() }),
    { minLength: 1, maxLength: 6 },
  ),
  finished: fc.boolean(),
});

/** One project's plan: L1 runs, maybe an L2 run, references and tombstones, in order. */
const projectPlan = fc.record({
  runs: fc.array(runPlan, { minLength: 1, maxLength: 4 }),
  synthesis: fc.boolean(),
  references: fc.array(
    fc.record({ heading: fc.constantFrom('Install', 'Usage', 'Flags'), text: sentence }),
    { maxLength: 3 },
  ),
  tombstones: fc.array(fc.nat(), { maxLength: 2 }),
  corrections: fc.array(
    fc.record({
      kind: fc.constantFrom('forget', 'supersede', 'confirm', 'add', 'pin', 'unpin'),
      pick: fc.nat(),
    }),
    { maxLength: 4 },
  ),
  items: fc.array(
    fc.record({
      type: fc.constantFrom('thread', 'task', 'fact'),
      summary: sentence,
      update: fc.option(sentence),
      detail: fc.option(sentence),
      // Archive hides an item from recall, any other tier shows it again.
      attention: fc.array(fc.constantFrom('archive', 'reference', 'active'), { maxLength: 2 }),
      log: fc.option(sentence),
      resolve: fc.constantFrom(null, 'done', 'dropped'),
      relate: fc.boolean(),
      remove: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
});

/**
 * Turns a plan into a valid payload sequence: every memory's parents resolve to evidence
 * written earlier in the same run or an earlier one; L2 parents are L1 memories.
 */
type ProjectPlan = typeof projectPlan extends fc.Arbitrary<infer P> ? P : never;

function payloadsFor(plan: ProjectPlan, runPrefix: string, project: string): Payload[] {
  const out: Payload[] = [];
  const l1Memories: string[] = [];
  const evidence: string[] = [];
  // A memory is a list of lines, each resting on the chunk it came from (issue 11 §3).
  const memoryByQuery = new Map<
    string,
    { text: string; lines: { text: string; parent: string }[] }
  >();
  plan.runs.forEach((run, r) => {
    const runId = `${runPrefix}-r${r + 1}`;
    out.push({
      type: 'run',
      run_id: runId,
      level: 'L1',
      query_id: run.query,
      input_level: 'chunk',
      model: 'heuristic',
      chunk_tokens: 5000,
      memory_budget: 1024,
      exit_gate: false,
    });
    let used = 0;
    let last: string | null = memoryByQuery.has(run.query)
      ? contentSha256(memoryByQuery.get(run.query)!.text)
      : null;
    run.steps.forEach((step, i) => {
      const t = i + 1;
      const chunkText = `${step.text} chunk ${r}-${t}`;
      const sha = contentSha256(chunkText);
      out.push({
        type: 'chunk',
        run_id: runId,
        level: 'L0',
        t,
        source: `claude:session-${r % 2}`,
        span: [t - 1, t],
        sha256: sha,
      });
      out.push({
        type: 'gate',
        run_id: runId,
        level: 'L1',
        t,
        update: step.update,
        exit: false,
        think: step.update ? 'evidence' : 'noise',
        latency_ms: 0,
      });
      if (!step.update) return;
      used += 1;
      out.push({
        type: 'evidence',
        run_id: runId,
        level: 'L0',
        t,
        source: `claude:session-${r % 2}`,
        text: chunkText,
        sha256: sha,
      });
      evidence.push(sha);
      const kept = memoryByQuery.get(run.query)?.lines ?? [];
      // A bounded memory sometimes lets its oldest line go: that line then leaves recall.
      const lines = [
        ...(step.dropOldest && kept.length > 1 ? kept.slice(1) : kept),
        { text: step.memory, parent: sha },
      ];
      const text = lines.map((line) => `- ${line.text}`).join('\n');
      const parents = [...new Set(lines.map((line) => line.parent))];
      memoryByQuery.set(run.query, { text, lines });
      const memorySha = contentSha256(text);
      // The line this chunk brought names a failure signature one step in three (issue 14), as
      // the extractor writes it: kept lines never repeat theirs.
      const failure = FAILURES[chunkText.length % 3];
      const refs = lines.map((line, i) => ({
        sha256: contentSha256(line.text),
        parents: [line.parent],
        ...(i === lines.length - 1 && failure !== undefined
          ? {
              signatures: lineSignatures([failure]).map(({ sigSha, signature, tool }) => ({
                sig_sha: sigSha,
                signature,
                tool,
              })),
            }
          : {}),
      }));
      out.push({
        type: 'memory',
        run_id: runId,
        level: 'L1',
        t,
        text,
        tokens: text.split(/\s+/).length,
        parents,
        sha256: memorySha,
        lines: refs,
      });
      l1Memories.push(memorySha);
      last = memorySha;
    });
    if (run.finished) {
      out.push({
        type: 'run_end',
        run_id: runId,
        level: 'L1',
        chunks_seen: run.steps.length,
        chunks_used: used,
        final_memory_sha: last,
      });
    }
  });
  if (plan.synthesis && l1Memories.length > 0) {
    const runId = `${runPrefix}-synth`;
    out.push({
      type: 'run',
      run_id: runId,
      level: 'L2',
      query_id: null,
      input_level: 'L1',
      model: 'heuristic',
      chunk_tokens: 5000,
      memory_budget: 1024,
      exit_gate: true,
    });
    const parents = l1Memories.slice(-2);
    parents.forEach((sha, i) => {
      out.push({
        type: 'chunk',
        run_id: runId,
        level: 'L1',
        t: i + 1,
        source: 'L1:synthesis',
        span: null,
        sha256: sha,
      });
      out.push({
        type: 'gate',
        run_id: runId,
        level: 'L2',
        t: i + 1,
        update: true,
        exit: i === parents.length - 1,
        think: 'summary',
        latency_ms: 0,
      });
    });
    const text = `Project state: ${parents.length} findings.`;
    out.push({
      type: 'memory',
      run_id: runId,
      level: 'L2',
      t: parents.length,
      text,
      tokens: 4,
      parents,
      sha256: contentSha256(text),
      lines: uniformLines(text, parents),
    });
    out.push({
      type: 'run_end',
      run_id: runId,
      level: 'L2',
      chunks_seen: parents.length,
      chunks_used: parents.length,
      final_memory_sha: contentSha256(text),
    });
  }
  plan.references.forEach((ref, i) => {
    const text = `${ref.text} reference ${i}`;
    out.push({
      type: 'reference',
      level: 'R',
      source: `doc:kubectl.md#${ref.heading.toLowerCase()}`,
      heading_path: ['kubectl', ref.heading],
      text,
      sha256: contentSha256(text),
    });
  });
  const targets = [...evidence, ...l1Memories];
  for (const pick of plan.tombstones) {
    if (targets.length === 0) break;
    out.push({
      type: 'tombstone',
      target: targets[pick % targets.length]!,
      reason: 'removed in a test',
    });
  }
  appendCorrections(out, plan.corrections, memoryByQuery);
  appendItems(out, plan.items, project);
  return out;
}

/**
 * Corrections of the L1 notes' lines after the extraction (issue 12): forgotten, superseded by
 * a successor text, confirmed, pinned and unpinned, and lines added in the vault under a line.
 * A line already forgotten or superseded is not corrected again (the registry refuses that),
 * except that a superseded line may still be forgotten (its old words; the replacement stays
 * live), and that an odd-picked supersede names an already superseded line when there is one
 * (A→B, then A→C: a log written before the registry refused that; the first supersession
 * holds). One supersede in five replaces a note's whole memory, and a forget while one is so
 * replaced forgets that memory; the lines of a memory superseded as a whole are not corrected
 * one by one afterwards (not generated: that case is unchecked). New texts use words of their
 * own, so no tombstone refuses them as a rewording on an engine append.
 */
function appendCorrections(
  out: Payload[],
  corrections: ProjectPlan['corrections'],
  memoryByQuery: ReadonlyMap<string, { text: string; lines: { text: string }[] }>,
): void {
  const lines = [...memoryByQuery].flatMap(([query, memory]) =>
    memory.lines.map((line) => ({ query, text: line.text, sha: contentSha256(line.text) })),
  );
  const done = new Set<string>();
  const superseded = new Set<string>();
  const wholes = new Map<string, { sha: string; lines: string[]; forgotten: boolean }>();
  corrections.forEach((correction, i) => {
    if (correctWhole(out, correction, i, memoryByQuery, lines, done, wholes)) return;
    const open = lines.filter(
      (line) => !done.has(line.sha) && (correction.kind === 'forget' || !superseded.has(line.sha)),
    );
    // Half the forgets after a supersede name the superseded line: a pick over every line
    // drew that about once in a hundred logs.
    const old = open.filter((line) => superseded.has(line.sha));
    if (correction.kind === 'forget' && correction.pick % 2 === 1 && old.length > 0)
      open.splice(0, open.length, ...old);
    if (open.length === 0) return;
    const line = open[correction.pick % open.length]!;
    const target = { target: line.sha, target_kind: 'line' as const, before_sha256: line.sha };
    if (correction.kind === 'confirm') {
      // An odd pick records what the line's cited span read as (one made-up chunk and digest).
      const cited = [
        { chunk: contentSha256(`chunk of ${line.text}`), digest: contentSha256(`read ${i}`) },
      ];
      out.push({ type: 'confirmed', ...target, ...(correction.pick % 2 === 1 ? { cited } : {}) });
      return;
    }
    // A pin (issue 13 §5) and an unpin, pinned or not (the registry writes none then; the
    // projection must not care).
    if (correction.kind === 'pin' || correction.kind === 'unpin') {
      out.push({
        type: correction.kind === 'pin' ? 'line_pinned' : 'line_unpinned',
        target: line.sha,
        level: 'L1',
        reason: `${correction.kind} in a test`,
      });
      return;
    }
    if (correction.kind === 'forget') {
      done.add(line.sha);
      out.push({
        type: 'forgotten',
        ...target,
        refuses: [{ sha256: line.sha, terms: termHashes(line.text) }],
        reason: 'forgotten in a test',
      });
      return;
    }
    const text = `${correction.kind === 'add' ? 'Added' : 'Corrected'} zeta note ${i}.`;
    const sha = contentSha256(text);
    if (lines.some((other) => other.sha === sha)) return;
    if (correction.kind === 'supersede') {
      const again = lines.filter((l) => superseded.has(l.sha) && !done.has(l.sha));
      if (correction.pick % 2 === 1 && again.length > 0) {
        const twice = again[correction.pick % again.length]!;
        out.push({
          type: 'superseded',
          target: twice.sha,
          target_kind: 'line',
          before_sha256: twice.sha,
          after_sha256: sha,
          text,
          reason: 'corrected again in a test',
        });
        return;
      }
      superseded.add(line.sha);
      out.push({
        type: 'superseded',
        ...target,
        after_sha256: sha,
        text,
        reason: 'corrected in a test',
      });
    } else {
      out.push({
        type: 'line_added',
        level: 'L1',
        query_id: line.query,
        after: line.sha,
        sha256: sha,
        text,
        reason: 'edited in the vault',
      });
    }
    lines.push({ query: line.query, text, sha });
  });
}

/**
 * A whole memory superseded (one supersede in five: the memory of the picked note) or, once
 * superseded, forgotten (every forget while one is). True when it wrote one; its lines are done.
 */
function correctWhole(
  out: Payload[],
  correction: ProjectPlan['corrections'][number],
  i: number,
  memoryByQuery: ReadonlyMap<string, { text: string; lines: { text: string }[] }>,
  lines: readonly { query: string; sha: string }[],
  done: Set<string>,
  wholes: Map<string, { sha: string; lines: string[]; forgotten: boolean }>,
): boolean {
  if (correction.kind === 'supersede') {
    if (correction.pick % 5 !== 4) return false;
    const queries = [...memoryByQuery.keys()].filter((q) => !wholes.has(q)).sort();
    if (queries.length === 0) return false;
    const query = queries[correction.pick % queries.length]!;
    const memory = memoryByQuery.get(query)!;
    const sha = contentSha256(memory.text);
    const text = `Rewritten zeta memory ${i}.`;
    const held = lines.filter((l) => l.query === query).map((l) => l.sha);
    if (held.some((h) => done.has(h))) return false;
    for (const h of held) done.add(h);
    wholes.set(query, { sha, lines: memory.lines.map((l) => l.text), forgotten: false });
    out.push({
      type: 'superseded',
      target: sha,
      target_kind: 'memory',
      before_sha256: sha,
      after_sha256: contentSha256(text),
      text,
      reason: 'rewritten in a test',
    });
    return true;
  }
  if (correction.kind !== 'forget') return false;
  const open = [...wholes.values()].filter((w) => !w.forgotten);
  if (open.length === 0) return false;
  const whole = open[correction.pick % open.length]!;
  whole.forgotten = true;
  out.push({
    type: 'forgotten',
    target: whole.sha,
    target_kind: 'memory',
    before_sha256: whole.sha,
    refuses: whole.lines.map((text) => ({ sha256: contentSha256(text), terms: termHashes(text) })),
    reason: 'forgotten whole in a test',
  });
  return true;
}

/**
 * Curated items after the extraction: each added, maybe reworded, given a detail, filed under
 * attention tiers, logged (a child's log moves its thread's activity), resolved (work items),
 * related to the thread before it (a task as its child, a fact anchored to it) and deleted. Ids
 * follow from the item_added event's seq, which is its place in the project's log.
 */
function appendItems(out: Payload[], items: ProjectPlan['items'], project: string): void {
  let thread: string | null = null;
  for (const item of items) {
    const relate = item.relate && thread !== null && item.type !== 'thread';
    out.push({
      type: 'item_added',
      item_type: item.type,
      summary: item.summary,
      ...(relate && item.type === 'task' ? { parent: thread! } : {}),
      ...(relate && item.type === 'fact' ? { anchors: [thread!] } : {}),
    });
    const id = itemId(project, out.length);
    if (item.update !== null)
      out.push({ type: 'item_updated', item: id, summary: item.update, reason: 'reworded' });
    if (item.detail !== null)
      out.push({ type: 'item_updated', item: id, detail: item.detail, reason: 'detailed' });
    for (const attention of item.attention)
      out.push({ type: 'item_attention_set', item: id, attention });
    if (item.log !== null)
      out.push({
        type: 'item_logged',
        item: id,
        text: item.log,
        ...(item.update !== null ? { conversation: 'session-1' } : {}),
      });
    if (item.type !== 'fact' && item.resolve !== null)
      out.push({ type: 'item_resolved', item: id, from: 'open', status: item.resolve });
    if (item.remove) out.push({ type: 'item_deleted', item: id, reason: 'removed in a test' });
    if (item.type === 'thread') thread = id;
  }
}

/** Valid payload sequences for one to `maxProjects` projects, keyed by project name. */
export function projectLogs(
  maxProjects = 2,
  options: { recorrect?: boolean } = {},
): fc.Arbitrary<Record<string, Payload[]>> {
  return fc.array(projectPlan, { minLength: 1, maxLength: maxProjects }).map((plans) => {
    const logs: Record<string, Payload[]> = {};
    plans.forEach((drawn, i) => {
      const plan = options.recorrect
        ? { ...drawn, corrections: [...drawn.corrections, ...RECORRECTIONS] }
        : drawn;
      logs[`proj-${i + 1}`] = payloadsFor(plan, `run-p${i + 1}`, `proj-${i + 1}`);
    });
    return logs;
  });
}

/**
 * With `recorrect`, every plan's corrections end so (appendCorrections' picks): a line
 * superseded, a superseded line superseded again (A→B, then A→C), a note's whole memory
 * superseded, and that memory forgotten. At random they met in about one log in fifty.
 */
const RECORRECTIONS: ProjectPlan['corrections'] = [
  { kind: 'supersede', pick: 0 },
  { kind: 'supersede', pick: 1 },
  { kind: 'supersede', pick: 4 },
  { kind: 'forget', pick: 0 },
];

/** Random cut points (sorted, unique) splitting `length` events into batches. */
export function splits(length: number): fc.Arbitrary<number[]> {
  return fc
    .uniqueArray(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: 6 })
    .map((cuts) => cuts.filter((c) => c < length).sort((a, b) => a - b));
}
