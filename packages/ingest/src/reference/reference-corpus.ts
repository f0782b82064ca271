import { MemError, type Payload, type Writer } from '@mem/core';
import type { Engine } from '@mem/engine';
import { corpusRoot, readCorpusFiles } from './corpus-files.js';
import { planCorpusSync, planTombstones, type CorpusSyncReport } from './corpus-plan.js';
import { emptyCorpusState, foldCorpusEvent, type CorpusState } from './corpus-state.js';
import { corpusTarget } from './corpus-target.js';

/** The engine calls a corpus command makes. */
export type CorpusEngine = Pick<Engine, 'read' | 'append' | 'projects' | 'exclusive'>;

/** A sync's report with the project it ran in and the last seq it appended (null: nothing to write). */
export interface CorpusResult extends CorpusSyncReport {
  project: string;
  seq: number | null;
}

async function foldProject(engine: CorpusEngine, project: string): Promise<CorpusState> {
  const state = emptyCorpusState();
  if (!(await engine.projects()).includes(project)) return state;
  for await (const { event } of engine.read(project)) foldCorpusEvent(state, event);
  return state;
}

/** One lock per project: two syncs must not both plan from the same fold and write twice. */
function locked<T>(engine: CorpusEngine, project: string, fn: () => Promise<T>): Promise<T> {
  return engine.exclusive(`reference-${project}`, fn);
}

async function appendAll(
  engine: CorpusEngine,
  project: string,
  payloads: Payload[],
  writer: Writer,
): Promise<number | null> {
  if (payloads.length === 0) return null;
  return (await engine.append(project, payloads, writer)).last_seq;
}

/**
 * `mem ref add`: registers the corpus (unless the log already has it with the same root and
 * globs) and syncs it, in one batch. A name registered with another root or globs is a
 * CONFLICT: `mem ref rm` it first, so one name never means two trees.
 */
export async function addCorpus(
  engine: CorpusEngine,
  options: { project: string; name: string; target: string; cwd: string; writer: Writer },
): Promise<CorpusResult> {
  const { root: given, globs } = corpusTarget(options.target, options.cwd);
  const root = corpusRoot(given);
  const registration = { name: options.name, root, globs: [...new Set(globs)].sort() };
  return locked(engine, options.project, async () => {
    const state = await foldProject(engine, options.project);
    const existing = state.corpora.get(options.name);
    const same =
      existing !== undefined &&
      existing.root === root &&
      existing.globs.join('\0') === registration.globs.join('\0');
    if (existing && !same)
      throw new MemError(
        'CONFLICT',
        `corpus ${options.name} of ${options.project} is already registered at ${existing.root} (${existing.globs.join(', ')}); mem ref rm ${options.name} first`,
        {
          field: 'name',
          project: options.project,
          name: options.name,
          root: existing.root,
          globs: existing.globs,
        },
      );
    const read = readCorpusFiles(root, registration.globs);
    const { payloads, report } = planCorpusSync(state, registration, read);
    // Trigger: a new corpus that would hold no passage (an empty file, a tree of empty or
    // skipped files). Why: registering it answers nothing and looks like success (it said
    // "0 passages"). Outcome: INVALID_INPUT naming the path, what was read, nothing written.
    if (!same && report.passages_written === 0)
      throw new MemError(
        'INVALID_INPUT',
        `path: ${options.target} holds no text to read as reference passages (${read.files.length} file${read.files.length === 1 ? '' : 's'} read${read.skipped.length > 0 ? `, ${read.skipped.length} skipped` : ''}${report.refused.length > 0 ? `, ${report.refused.length} passages refused as forgotten` : ''}); give a file or tree that holds some`,
        {
          field: 'path',
          path: options.target,
          files: read.files.map((f) => f.uri),
          skipped: read.skipped,
          refused: report.refused.length,
        },
      );
    const register: Payload[] = same ? [] : [{ type: 'corpus_registered', ...registration }];
    const seq = await appendAll(
      engine,
      options.project,
      [...register, ...payloads],
      options.writer,
    );
    return { project: options.project, ...report, seq };
  });
}

/** Every registered corpus, by project and name (the projects asked for, or all). */
export async function listCorpora(
  engine: CorpusEngine,
  projects?: readonly string[],
): Promise<
  {
    project: string;
    name: string;
    root: string;
    globs: string[];
    sources: number;
    passages: number;
  }[]
> {
  const out = [];
  for (const project of projects ?? (await engine.projects())) {
    const state = await foldProject(engine, project);
    for (const c of [...state.corpora.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      const sources = state.live.get(c.name) ?? new Map<string, Set<string>>();
      let passages = 0;
      for (const shas of sources.values()) passages += shas.size;
      out.push({
        project,
        name: c.name,
        root: c.root,
        globs: c.globs,
        sources: sources.size,
        passages,
      });
    }
  }
  return out;
}

/** The projects holding corpus `name`: NOT_FOUND when none, AMBIGUOUS_REF (with candidates) when several and none was named. */
async function projectsWith(engine: CorpusEngine, name: string, project?: string): Promise<string> {
  const found = (await listCorpora(engine, project ? [project] : undefined)).filter(
    (c) => c.name === name,
  );
  if (found.length === 0)
    throw new MemError('NOT_FOUND', `no corpus ${name}${project ? ` in ${project}` : ''}`, {
      field: 'name',
      name,
    });
  if (found.length > 1)
    throw new MemError(
      'AMBIGUOUS_REF',
      `corpus ${name} is registered in several projects; name one with --project`,
      {
        field: 'name',
        name,
        candidates: found.map((c) => c.project),
      },
    );
  return found[0]!.project;
}

/** `mem ref sync`: re-reads every registered corpus (or the one named) and writes what changed. */
export async function syncCorpora(
  engine: CorpusEngine,
  options: { project?: string; name?: string; writer: Writer },
): Promise<CorpusResult[]> {
  const targets = options.name
    ? [{ project: await projectsWith(engine, options.name, options.project), name: options.name }]
    : await listCorpora(engine, options.project ? [options.project] : undefined);
  const out: CorpusResult[] = [];
  for (const { project, name } of targets) {
    out.push(
      await locked(engine, project, async () => {
        const state = await foldProject(engine, project);
        const registration = state.corpora.get(name);
        if (!registration)
          throw new MemError('NOT_FOUND', `no corpus ${name} in ${project}`, {
            field: 'name',
            name,
          });
        const root = corpusRoot(registration.root);
        const { payloads, report } = planCorpusSync(
          state,
          registration,
          readCorpusFiles(root, registration.globs),
        );
        return {
          project,
          ...report,
          seq: await appendAll(engine, project, payloads, options.writer),
        };
      }),
    );
  }
  return out;
}

/** `mem ref rm`: unregisters the corpus and tombstones every passage it alone held, in one batch. */
export async function removeCorpus(
  engine: CorpusEngine,
  options: { project?: string; name: string; writer: Writer },
): Promise<{ project: string; name: string; passages_tombstoned: number; seq: number }> {
  const project = await projectsWith(engine, options.name, options.project);
  return locked(engine, project, async () => {
    const state = await foldProject(engine, project);
    const dropped = [...(state.live.get(options.name) ?? new Map<string, Set<string>>())].flatMap(
      ([uri, shas]) => [...shas].map((sha) => ({ uri, sha, why: 'corpus removed' })),
    );
    const tombstones = planTombstones(state, options.name, new Map(), dropped);
    const payloads: Payload[] = [
      ...tombstones,
      { type: 'corpus_removed', name: options.name, reason: 'mem ref rm' },
    ];
    const seq = (await appendAll(engine, project, payloads, options.writer))!;
    return { project, name: options.name, passages_tombstoned: tombstones.length, seq };
  });
}
