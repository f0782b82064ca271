import type { ChunkRecord } from '../controller.js';
import type { Signal } from './summary-signals.js';
import { listItems } from './text.js';

/*
 * An agent that has read the code or the docs often closes with what it learned, as a list under
 * a lead-in that says so: "Key findings:", "### Important Notes", "Found some discrepancies:",
 * "Caveats:". Each item states how the system works ("JSON is only processed on exit code 0",
 * "No Igniter installers exist for credo…") and carries no cue word a prose sentence is scored
 * by, so as prose it never reaches the gate. The lead-in is the signal: its items are findings
 * the agent itself singled out, kept whole, one line each.
 */

/** A lead-in that names what follows as findings, notes or discrepancies found. */
const FINDINGS =
  /\b(?:(?:key|main|important|notable)\s+(?:findings?|notes?|points?|facts|details|takeaways?)|findings|caveats?|gotchas?|takeaways?|(?:found|noticed|discovered|spotted)\s+(?:(?:some|a few|several|these|the following|two|three|four|\d+)\s+)?(?:discrepanc(?:y|ies)|inconsistenc(?:y|ies)|mismatch(?:es)?))\b/iu;
/** A markdown heading or a bold line alone, its text captured. */
const HEADING = /^(?:#{1,6}[ \t]+(.+?)[ \t#]*|\*\*([^*\n]{1,80}?):?\*\*:?[ \t]*)$/u;
const ITEM = /^\s*(?:[-*+]|\d+[.)])\s+\S/u;
/** An item shorter than this says too little to stand alone ("Credo", "done"). */
const MIN_WORDS = 4;

/**
 * Findings lines of the agent's spoken records: the list items under a findings heading (to the
 * next heading) or under a line that ends in a findings lead-in and a colon (to the first line
 * that is neither an item nor indented under one).
 */
export function findingsSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  for (const record of records) {
    if (record.role !== 'assistant' || record.text.startsWith('[thinking]')) continue;
    const lines = record.text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim();
      const heading = HEADING.exec(line);
      const title = heading?.[1] ?? heading?.[2];
      const leadIn = title === undefined && /:\s*$/u.test(line) && !ITEM.test(lines[i]!);
      // The lead-in's last sentence names the list: "Good, I have enough context. Key findings:".
      const named = title ?? (leadIn ? line.split(/(?<=[.!?])\s+/u).at(-1)! : undefined);
      if (named === undefined || !FINDINGS.test(named)) continue;
      const block: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const next = lines[j]!;
        if (HEADING.test(next.trim())) break;
        if (title === undefined && next.trim() !== '' && !ITEM.test(next) && !/^\s/u.test(next))
          break;
        // "**No installer** exists for…" is bold emphasis inside a sentence, not a label: unbolded,
        // so the list reader does not cut it into "No installer: exists for…".
        block.push(next.replace(/^(\s*(?:[-*+]|\d+[.)])\s+)\*\*([^*]+)\*\*(?=\s+[^\s:])/u, '$1$2'));
      }
      for (const item of listItems(block.join('\n')))
        if (item.split(/\s+/u).length >= MIN_WORDS) out.push({ text: item, family: 'decision' });
      i = j - 1;
    }
  }
  return out;
}
