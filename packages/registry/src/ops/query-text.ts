import type { z } from 'zod';
import { warningLine } from './items/freshness.js';
import type { queryOutput } from './query-output.js';
import { lineWarningLine } from './query-freshness.js';

type Answer = z.infer<typeof queryOutput>;
type Hit = Answer['results'][number];

/** `mem query`'s readable answer: a header, then each result with its signals and citations. */
export function queryText(answer: Answer): string {
  const scope = `${answer.recall.projects.length > 0 ? answer.recall.projects.join(', ') : '(no projects)'} at ${answer.recall.levels.join(', ')}`;
  // An as-of answer says first what it is: which seqs, which legs, and that forgetting holds.
  const asOf = answer.recall.as_of ? [`as of: ${answer.recall.as_of.note}`] : [];
  // A held-back item or line is named even when nothing else answers: recall never drops one silently.
  const warnings = answer.freshness_warnings.map((w) =>
    w.kind === 'item' ? warningLine(w) : lineWarningLine(w),
  );
  if (answer.freshness_warnings_left_out)
    warnings.push(`… ${answer.freshness_warnings_left_out} more held back or warned`);
  if (answer.abstained)
    return [
      ...asOf,
      `${answer.reason}: nothing in ${scope} clears the relevance floor`,
      ...warnings,
    ].join('\n');
  const vector =
    answer.recall.vector === 'used' ? '' : ` (vector recall ${answer.recall.vector}: keyword only)`;
  // Trigger: hits that clear no relevance floor listed after a match (the stop-32 walk). Why:
  // they are kept (recall@k and the JSON answer count them), but read as answers they mislead.
  // Outcome: the header says how many clear the floor, and a rule line sets the rest apart.
  const weak = answer.results.filter(belowFloor).length;
  const lines = [
    ...asOf,
    `${answer.results.length} result${answer.results.length === 1 ? '' : 's'} in ${scope}${vector}${weak > 0 ? `; ${answer.results.length - weak} clear${answer.results.length - weak === 1 ? 's' : ''} the relevance floor, ${weak} below it` : ''}`,
  ];
  answer.results.forEach((hit, i) => {
    const previous = answer.results[i - 1];
    if (belowFloor(hit) && previous !== undefined && !belowFloor(previous))
      lines.push('', '-- below the relevance floor: weak matches, not answers --');
    lines.push('', ...hitLines(hit, i + 1));
  });
  if (warnings.length > 0) lines.push('', ...warnings);
  return lines.join('\n');
}

/** A failed recall leg, for stderr: the answer rests on the others. */
export function queryWarnings(answer: Answer): string[] {
  return answer.recall.errors.map(
    (e) => `warning: ${e.leg} recall failed, answering without it: ${e.message} [${e.code}]`,
  );
}

function hitLines(hit: Hit, position: number): string[] {
  // A curated item reads as what it is (`[rule it-…]`), a line by its level and tier.
  const label = hit.item
    ? `${hit.item.type} ${hit.item.id}${hit.item.status ? ` ${hit.item.status}` : ''}${hit.item.pinned ? ' pinned' : ''}`
    : `${hit.level} ${hit.tier}`;
  const lines = [
    `${position}. [${label}] ${hit.project}${hit.source ? `  ${hit.source}` : ''}${hit.item ? '' : `  ${hit.sha256.slice(0, 12)}`}  score ${hit.score.toFixed(4)}  (${signals(hit)})`,
  ];
  for (const line of hit.text.split('\n')) lines.push(`   ${line}`);
  // An item's grounding: the record it cites and the line it was promoted from (stop-32 walk).
  if (hit.item?.source_uri) lines.push(`   cites ${hit.item.source_uri}`);
  if (hit.item?.from_line)
    lines.push(
      `   promoted from ${hit.item.from_line.level} line ${hit.item.from_line.sha256.slice(0, 12)} in ${hit.item.from_line.note}`,
    );
  if (hit.superseded_by)
    lines.push(
      `   superseded by ${hit.superseded_by.sha256.slice(0, 12)} at seq ${hit.superseded_by.seq}: ${hit.superseded_by.reason}`,
    );
  // A line answers; its note says where it is kept (the memory's query and vault note).
  if (hit.note)
    lines.push(
      `   in ${hit.note.path} (${hit.note.query_id ?? 'synthesis'}, memory ${hit.note.sha256.slice(0, 12)})`,
    );
  // Its lineage: the hits that said the same thing and folded into it, each with its verdict.
  for (const f of hit.folded ?? [])
    lines.push(
      `   folded ${f.item_id ? `${f.kind} ${f.item_id}` : `${f.level} ${f.sha256.slice(0, 12)}`}${f.note ? ` in ${f.note.path}` : ''} (#${f.rank}, ${f.reason.replace('_', ' ')}${f.freshness ? `, ${f.freshness}` : ''})`,
    );
  for (const parent of hit.parents) {
    const where = [parent.source, parent.t !== null ? `t${parent.t}` : null]
      .filter((x) => x !== null)
      .join(' ');
    lines.push(`   cites ${parent.level}${where ? ` ${where}` : ''}: ${oneLine(parent.text, 160)}`);
  }
  return lines;
}

const belowFloor = (hit: Hit) => hit.ranking.floor_passed_by.length === 0;

function signals(hit: Hit): string {
  const r = hit.ranking;
  const parts: string[] = [];
  if (r.keyword) parts.push(`keyword #${r.keyword.rank}`);
  if (r.vector_text) parts.push(`text #${r.vector_text.rank}`);
  if (r.vector_symptom) parts.push(`symptom #${r.vector_symptom.rank}`);
  if (r.rerank) parts.push(`rerank #${r.rerank.rank}`);
  if (r.floor_passed_by.length === 0) parts.push('below floor');
  return parts.join(', ');
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
