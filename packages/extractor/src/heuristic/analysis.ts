import { cuesIn, isNarration, type Cue } from './cues.js';
import { terms } from './text.js';

/** What the heuristic reads off one unit of text, whatever the question. */
export interface UnitAnalysis {
  /** Distinct content terms (stems). */
  terms: ReadonlySet<string>;
  cues: readonly Cue[];
  /** Narration of the agent's next step, or a line that reads as code: weighed down. */
  discounted: boolean;
  thinking: boolean;
}

const cache = new Map<string, UnitAnalysis>();
const CACHE_LIMIT = 4096;

/**
 * Analyses a unit once: the same chunk is judged for every standing query, and the memory's
 * lines are re-read at every step, so the question-independent work is cached (bounded; the
 * cache is simply dropped when full).
 */
export function analyzeUnit(text: string): UnitAnalysis {
  let analysis = cache.get(text);
  if (analysis === undefined) {
    analysis = {
      terms: new Set(terms(text)),
      cues: cuesIn(text),
      discounted: isNarration(text) || isCodeLike(text),
      thinking: text.startsWith('[thinking]'),
    };
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(text, analysis);
  }
  return analysis;
}

/** Lines dominated by symbols, paths or identifiers read as code or output, not prose. */
function isCodeLike(sentence: string): boolean {
  let letters = 0;
  let spaces = 0;
  for (const ch of sentence) {
    if (ch === ' ' || ch === '\t') spaces += 1;
    else if (/\p{L}/u.test(ch)) letters += 1;
  }
  return letters < sentence.length * 0.55 || spaces < sentence.length / 25;
}
