import type { VaultFold } from './fold-state.js';
import { stringifyNote } from './frontmatter.js';

/**
 * The note `<project>/_review.md`: the open review findings, oldest first, each with its id (what
 * `mem review keep|dismiss|supersede` takes), kind, subjects and explanation. Null with none
 * open: the note goes once the queue is empty. Findings name lines by sha, so the note never
 * shows the text of a forgotten line.
 */
export function renderReviewNote(fold: VaultFold): string | null {
  const open = [...fold.reviews].sort(([, a], [, b]) => a.seq - b.seq);
  if (open.length === 0) return null;
  return stringifyNote(
    [
      ['project', fold.project],
      ['open_findings', open.length],
    ],
    [
      `# Review: ${fold.project}`,
      '',
      'Decide each with `mem review keep|dismiss|supersede ID --reason TEXT`.',
      ...open.flatMap(([id, finding]) => [
        '',
        `## ${finding.kind} ${id.slice(0, 12)}`,
        '',
        `- id: \`${id}\``,
        `- opened at seq ${finding.seq}`,
        `- subjects: ${finding.subjects.map((sha) => `\`${sha}\``).join(', ')}`,
        `- ${finding.explanation}`,
      ]),
    ],
  );
}
