import type { LogEvent, Payload } from '@mem/core';

/** A provenance rule broken by one memory event. */
export interface ProvenanceProblem {
  project: string;
  seq: number;
  segment: string;
  line: number;
  code:
    | 'parent_unresolved'
    | 'parent_is_reference'
    | 'parent_wrong_level'
    | 'no_l0_parent'
    | 'no_l1_parent';
  message: string;
}

/** A provenance rule a payload would break, with the field to blame. */
export interface PayloadProblem {
  code: ProvenanceProblem['code'];
  field: string;
  message: string;
}

type NodeLevel = 'L0' | 'L1' | 'L2' | 'R';

const MAX_PROBLEMS = 100;

/**
 * Folds one project's events and checks DESIGN's provenance rules as they stream by:
 * every parent sha resolves to a node written earlier, an L1 memory rests on at least one
 * L0 evidence, an L2 memory on L1 memories, and nothing ever rests on an R node.
 * Keeps 16 hex characters of each sha (64 bits) so a million nodes fit in little memory.
 */
export class ProvenanceCheck {
  readonly problems: ProvenanceProblem[] = [];
  memories = 0;
  private problemCount = 0;
  private readonly levels = new Map<string, number>();

  /**
   * `base`: a check whose nodes this one counts too, without changing it (the log's fold, kept
   * between appends, under the batch being checked).
   */
  constructor(
    private readonly project: string,
    private readonly base?: ProvenanceCheck,
  ) {}

  get total(): number {
    return this.problemCount;
  }

  apply(event: LogEvent, where: { segment: string; line: number }): void {
    switch (event.type) {
      case 'evidence':
        this.add(event.sha256, 'L0');
        return;
      case 'reference':
        this.add(event.sha256, 'R');
        return;
      case 'memory': {
        this.memories += 1;
        for (const found of this.problemsOf(event))
          this.report(event, where, found.code, found.message);
        this.add(event.sha256, event.level);
        return;
      }
      default:
        return;
    }
  }

  /**
   * Checks one memory payload about to be appended against every node folded so far (the log,
   * then the batch before it), then adds its node if it passes. Returns its first problem with
   * the field to blame (`parents[i]`, or `parents` when none rests on the right level).
   */
  admit(payload: Payload): PayloadProblem | null {
    if (payload.type !== 'memory') {
      if (payload.type === 'evidence') this.add(payload.sha256, 'L0');
      if (payload.type === 'reference') this.add(payload.sha256, 'R');
      return null;
    }
    const [found] = this.problemsOf(payload);
    if (found) return found;
    this.add(payload.sha256, payload.level);
    return null;
  }

  /** Adds the node a payload checked already writes (a batch still in flight), checking nothing. */
  note(payload: Payload): void {
    if (payload.type === 'evidence') this.add(payload.sha256, 'L0');
    else if (payload.type === 'reference') this.add(payload.sha256, 'R');
    else if (payload.type === 'memory') this.add(payload.sha256, payload.level);
  }

  /** The broken rules of one memory, in parent order; the missing-level problem last. */
  private problemsOf(memory: { level: 'L1' | 'L2'; parents: readonly string[] }): PayloadProblem[] {
    const wanted: NodeLevel = memory.level === 'L1' ? 'L0' : 'L1';
    const problems: PayloadProblem[] = [];
    let resting = 0;
    memory.parents.forEach((parent, index) => {
      const field = `parents[${index}]`;
      const levels = this.levelsOf(parent.slice(0, 16));
      if (levels === 0) {
        problems.push({
          code: 'parent_unresolved',
          field,
          message: `parent ${parent} is not a node written before this memory`,
        });
      } else if (levels & bit(wanted)) {
        resting += 1;
      } else if (levels & bit('R')) {
        problems.push({
          code: 'parent_is_reference',
          field,
          message: `parent ${parent} is a reference (R) node: R is never evidence`,
        });
      } else {
        problems.push({
          code: 'parent_wrong_level',
          field,
          message: `parent ${parent} is not an ${wanted} node: an ${memory.level} memory rests on ${wanted}`,
        });
      }
    });
    if (resting === 0) {
      if (memory.level === 'L1')
        problems.push({
          code: 'no_l0_parent',
          field: 'parents',
          message: 'this L1 memory has no L0 evidence parent',
        });
      else
        problems.push({
          code: 'no_l1_parent',
          field: 'parents',
          message: 'this L2 memory rests on no L1 memory',
        });
    }
    return problems;
  }

  /** Every node folded so far: 16 hex characters of its sha and its levels, one bit each (a saved fold). */
  nodes(): IterableIterator<[string, number]> {
    return this.levels.entries();
  }

  /** Adds a node a saved fold recorded (`nodes`), checking nothing. */
  restore(key: string, levels: number): void {
    this.levels.set(key, levels);
  }

  private levelsOf(key: string): number {
    return (this.levels.get(key) ?? 0) | (this.base?.levelsOf(key) ?? 0);
  }

  private add(sha: string, level: NodeLevel): void {
    const key = sha.slice(0, 16);
    this.levels.set(key, (this.levels.get(key) ?? 0) | bit(level));
  }

  private report(
    event: LogEvent,
    where: { segment: string; line: number },
    code: ProvenanceProblem['code'],
    message: string,
  ): void {
    this.problemCount += 1;
    if (this.problems.length >= MAX_PROBLEMS) return;
    this.problems.push({
      project: this.project,
      seq: event.seq,
      segment: where.segment,
      line: where.line,
      code,
      message: `${this.project} seq ${event.seq} (${where.segment}:${where.line}): ${message}`,
    });
  }
}

function bit(level: NodeLevel): number {
  return level === 'L0' ? 1 : level === 'L1' ? 2 : level === 'L2' ? 4 : 8;
}
