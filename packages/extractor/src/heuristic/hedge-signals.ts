import type { ChunkRecord } from '../controller.js';
import { isChatter } from './chatter.js';
import type { Signal } from './summary-signals.js';
import { sentences, termSet } from './text.js';

/*
 * An agent that only guesses at a cause ("might be related to the configuration") and moves
 * on has left a question open: the next session should not take the guess for a finding. A
 * later sentence of the chunk that confirms or fixes the same thing closes it.
 */

const HEDGED =
  /\b(?:might|may|could) (?:be|have been) (?:related to|caused by|due to|because of|coming from)\b|\bnot sure (?:why|what|whether|if)\b|\bunclear (?:why|what|whether)\b/i;
const SETTLES =
  /\b(?:confirmed|fixed|resolved|turned out|the (?:root )?cause (?:was|is)|was caused by)\b/i;

/** One open line per hedged diagnosis that no later sentence of the chunk settles. */
export function hedgedDiagnosisSignals(records: readonly ChunkRecord[]): Signal[] {
  const said = records
    .filter((r) => r.role === 'assistant' && !r.text.startsWith('[thinking]'))
    .flatMap((r) => sentences(r.text))
    .filter((s) => !isChatter(s));
  const out: Signal[] = [];
  said.forEach((sentence, i) => {
    if (!HEDGED.test(sentence)) return;
    const terms = termSet(sentence);
    // Settled: a later confirmation or fix that names the guess's subject and its suspect
    // (two of its terms): one shared word ("build") is a different fix of a long session.
    const settled = said
      .slice(i + 1)
      .some(
        (later) =>
          SETTLES.test(later) && [...termSet(later)].filter((t) => terms.has(t)).length >= 2,
      );
    if (!settled) out.push({ text: `Unresolved: ${sentence.trim()}`, family: 'open' });
  });
  return out;
}
