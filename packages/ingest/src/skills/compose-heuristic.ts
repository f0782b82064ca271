import type { SkillParts, SkillSource } from './skill-input.js';
import { whenToUse } from './when-to-use.js';

// Words that mark a line as a failure to recognise (a "Check") or as something to do (a step).
const ERROR =
  /\b(error|errors|fail(s|ed|ure)?|crash(es|ed)?|exception|broke|broken|refus(e|es|ed)|timeout|timed out|panic|not found|missing|bug)\b/i;
const ACTION =
  /\b(fix(es|ed)?|use[sd]?|set|run|add(ed)?|remov(e|ed)|replac(e|ed)|switch(ed)?|decid(e|ed)|chose|must|should|always|never|instead|prefer|pin(ned)?|upgrad(e|ed)|restart(ed)?|configur(e|ed)|resolv(e|ed))\b/i;

/** A line as an imperative step: its first letter upper-cased, one terminal full stop. */
function sentence(line: string): string {
  const text = line.trim().replace(/[.;:]+$/, '');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * The embedded composer: deterministic, model-free. Following the Agent Skills guidance, the
 * body is short and actionable — when it applies, numbered steps from the lines that say what
 * was done or decided, and what to check from the lines that name a failure — and everything
 * else stays in the note it was drawn from (progressive disclosure: the note is linked, not
 * copied). A line that names a failure and its fix is a step: the fix is what to do.
 */
export function composeHeuristic(source: SkillSource): SkillParts {
  const steps = source.lines.filter((line) => ACTION.test(line));
  const checks = source.lines.filter((line) => !ACTION.test(line) && ERROR.test(line));
  const context = source.lines.filter((line) => !ACTION.test(line) && !ERROR.test(line));
  const topic = source.title.charAt(0).toLowerCase() + source.title.slice(1);
  const when = whenToUse(
    source.project,
    source.lines.filter((line) => ERROR.test(line)),
    steps,
  );
  const body = [`# ${source.title}`, '', when, ''];
  if (steps.length > 0) {
    body.push('## Steps', '');
    steps.forEach((line, i) => body.push(`${i + 1}. ${sentence(line)}`));
    body.push('');
  }
  if (checks.length > 0) {
    body.push('## Check', '');
    for (const line of checks) body.push(`- ${sentence(line)}`);
    body.push('');
  }
  if (context.length > 0) {
    body.push('## Context', '');
    for (const line of context) body.push(`- ${sentence(line)}`);
    body.push('');
  }
  body.push(
    `Drawn from the memory note ${source.from}; read it for the evidence behind each line.`,
  );
  const first = steps[0] ?? checks[0] ?? source.lines[0] ?? '';
  return {
    description: clip(`What to do about ${topic} in ${source.project}: ${sentence(first)}`, 1024),
    when_to_use: clip(when, 1024),
    body: body.join('\n'),
  };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
