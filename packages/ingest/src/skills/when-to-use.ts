/** How many situations a "When…" line names: enough to recognise, short enough to scan. */
const SITUATIONS = 3;
const CLAUSE_CHARS = 160;

// Where a line stops describing what went wrong and starts explaining or fixing it.
const CAUSE_OR_FIX = /[.;](?:\s|$)|,?\s+(?:because|caused by|fixed|fixes|fix|resolved|solved)\b/i;

/**
 * When to use a skill, said as the situation an agent is in (Agent Skills' `when_to_use`), not
 * as the standing query's title: the failures the note's lines record, each cut before its
 * cause or fix ("Uploads failed with 413 because …" → "Uploads failed with 413"), in note order.
 * A skill that fixes no failure is for acting on what its lines settle. Deterministic.
 */
export function whenToUse(
  project: string,
  failures: readonly string[],
  steps: readonly string[],
): string {
  if (failures.length > 0)
    return `When one of these shows up in ${project}: ${situations(failures)}.`;
  if (steps.length > 0)
    return `When about to act on what this settles in ${project}: ${situations(steps)}.`;
  return `When working in ${project}.`;
}

function situations(lines: readonly string[]): string {
  return lines
    .map(clause)
    .filter((text) => text !== '')
    .slice(0, SITUATIONS)
    .join('; ');
}

/** The line up to its cause or fix, first letter upper-cased, clipped at a word boundary. */
function clause(line: string): string {
  const cut = CAUSE_OR_FIX.exec(line);
  const text = (cut ? line.slice(0, cut.index) : line).trim().replace(/[\s:;,.-]+$/, '');
  const clipped =
    text.length <= CLAUSE_CHARS ? text : `${text.slice(0, text.lastIndexOf(' ', CLAUSE_CHARS))}…`;
  return `${clipped.charAt(0).toUpperCase()}${clipped.slice(1)}`;
}
