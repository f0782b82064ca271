/** Which task, attempt and agent a loop artifact file belongs to. */
export interface LoopFileIdentity {
  task: string;
  attempt: string;
  /** `coder`, `reviewer`, or another role word found in the name; `agent` when none is. */
  agent: string;
}

const AGENT_WORD = /(coder|reviewer|review|planner|tester|fixer|agent)/iu;

/**
 * Names a loop artifact from its path relative to the artifacts root (layout assumed in the
 * README): `<TaskId>/<attempt>-<agent>.jsonl` (`T-42/1-coder.jsonl`, `T-42/attempt-2-reviewer.jsonl`)
 * or `<TaskId>/<attempt>/<agent>.jsonl`. A file directly under the root belongs to the task named
 * `rootName` (the root was a task directory). The attempt is its number when it has one.
 */
export function loopFileIdentity(relativePath: string, rootName: string): LoopFileIdentity {
  const segments = relativePath.split(/[\\/]/u).filter((s) => s !== '');
  const file = segments.pop() ?? '';
  const task = segments.shift() ?? rootName;
  const stem = file.replace(/\.jsonl$/iu, '');
  const agentMatch = AGENT_WORD.exec(stem) ?? AGENT_WORD.exec(segments.join('/'));
  const word = agentMatch?.[1]?.toLowerCase();
  const agent = word === undefined ? 'agent' : word === 'review' ? 'reviewer' : word;
  const attemptText = segments.length > 0 ? segments.join('/') : stem.replace(AGENT_WORD, '');
  const digits = /\d+/u.exec(attemptText)?.[0];
  const rest = attemptText.replace(/^[-_.\s]+|[-_.\s]+$/gu, '');
  const attempt =
    digits !== undefined ? String(Number.parseInt(digits, 10)) : rest === '' ? '1' : rest;
  return { task, attempt, agent };
}
