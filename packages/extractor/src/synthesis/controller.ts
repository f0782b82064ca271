import type { Tokenizer } from '@mem/chunk';
import { lineTokens, nearDuplicateTokens, splitMemoryLines } from '@mem/core';
import type { Controller, ControllerAnswer, ControllerInput } from '../controller.js';
import { formatGateAnswer } from '../protocol.js';
import { synthesisPriority } from './strength.js';

/**
 * The record role of an L2 line that no current L1 line says any more (the synthesis offers
 * them in a step of their own): the controller drops the held line of that exact text.
 */
export const RETIRED_ROLE = 'retired';

/** How the retiring step's text names each such line to a model: `- no longer in the L1 notes: <line>`. */
export const RETIRED_MARK = 'no longer in the L1 notes:';

export interface SynthesisOptions {
  /**
   * A line just offered must outweigh the memory's weakest by this share to take its place
   * once the memory is full: between lines of one weight the memory keeps what it holds, so a
   * batch no better than what is there does not rewrite it (each rewrite is an update).
   */
  incumbency?: number;
  /**
   * A memory at this share of its budget is full: it no longer grows into the last few tokens,
   * a new line enters only in place of weaker ones (a short weak line late in the stream
   * otherwise slipped into the slack and counted as an update).
   */
  fullShare?: number;
}

interface Line {
  text: string;
  tokens: Set<string>;
  score: number;
  fresh: boolean;
}

/**
 * The embedded L2 controller: deterministic and model-free, answering in the gate protocol.
 * A synthesis step is a batch of L1 lines (one `memory` record per line, already
 * `[query-id] `-prefixed and folded across notes by the synthesis). The update gate opens
 * only when a line adds knowledge the L2 memory does not hold: a line that near-duplicates one
 * of the memory's (normalised token overlap, @mem/core nearDuplicate) adds nothing, and once
 * the memory is at its budget a new line must outweigh its weakest line to enter, each weighed
 * by synthesisPriority over the lines held and offered (its rank among the lines of its kind,
 * so a kind the memory holds many of gives up its last line first). The exit
 * gate stays closed: a synthesis that stopped early would leave batches unread, and the next
 * one would read them again (an unchanged project must write nothing).
 */
export function synthesisController(
  tokenizer: Tokenizer,
  options: SynthesisOptions = {},
): Controller {
  const incumbency = options.incumbency ?? 0.1;
  const fullShare = options.fullShare ?? 0.9;
  return {
    name: 'synthesis',
    model: 'heuristic-synthesis',
    maxAttempts: 1,
    strictBudget: false,
    async answer(input: ControllerInput): Promise<ControllerAnswer> {
      const started = performance.now();
      const priority = synthesisPriority(input.question);
      const held: Line[] = splitMemoryLines(input.memory).map((text) => ({
        text,
        tokens: lineTokens(text),
        score: 0,
        fresh: false,
      }));
      // A held line the synthesis says no current L1 line holds any more leaves first.
      const retiring = input.chunk.records
        .filter((record) => record.role === RETIRED_ROLE)
        .map((record) => record.text.trim());
      const next = held.filter((line) => !retiring.includes(line.text));
      const retired = held.length - next.length;
      const kept = [...next];
      let said = 0;
      for (const record of input.chunk.records) {
        const text = record.text.trim();
        if (record.role !== 'memory' || text === '') continue;
        const tokens = lineTokens(text);
        if (next.some((line) => nearDuplicateTokens(line.tokens, tokens))) {
          said += 1;
          continue;
        }
        next.push({ text, tokens, score: 0, fresh: true });
      }
      const offered = next.length - kept.length;
      // A line's priority is its rank among the lines of its kind held and offered together.
      const scores = priority(next.map((line) => line.text));
      next.forEach((line, i) => (line.score = scores[i]!));
      // Weakest first out; a fresh line is handicapped against a held one, and on a tie the
      // later line goes (the batch is offered strongest first, so the later one is weaker).
      const weight = (line: Line) => (line.fresh ? line.score / (1 + incumbency) : line.score);
      // Full is judged on what stays: the room a retired line leaves is room to fill.
      const keptTokens = tokenizer.count(render(kept));
      const limit =
        keptTokens >= fullShare * input.memoryBudget
          ? Math.min(keptTokens, input.memoryBudget)
          : input.memoryBudget;
      while (next.length > 1 && tokenizer.count(render(next)) > limit) {
        let weakest = next.length - 1;
        for (let i = next.length - 2; i >= 0; i--)
          if (weight(next[i]!) < weight(next[weakest]!)) weakest = i;
        next.splice(weakest, 1);
      }
      const memory = render(next);
      // No line left is no memory to write: the gate stays shut rather than answer an empty one.
      const update = memory !== '' && memory !== render(held);
      const entered = next.filter((line) => line.fresh).length;
      const think = !update
        ? retired > 0 && memory === ''
          ? `Every line of the memory left the L1 notes and none is offered in its place.`
          : offered === 0
            ? `The memory already holds what every line of this batch says (${said}).`
            : `The memory is at its budget and none of the ${offered} new line${offered === 1 ? '' : 's'} outweighs its weakest.`
        : [
            retired > 0
              ? `${retired} line${retired === 1 ? '' : 's'} no L1 note holds any more left the memory.`
              : '',
            offered + said > 0
              ? `${entered} of ${offered + said} line${offered + said === 1 ? '' : 's'} add${entered === 1 ? 's' : ''} what the memory does not hold${said > 0 ? `; ${said} already said` : ''}.`
              : '',
          ]
            .filter((part) => part !== '')
            .join(' ');
      const text = formatGateAnswer({ think, update, memory: update ? memory : '', exit: false });
      return { text, latencyMs: performance.now() - started };
    },
  };
}

function render(lines: readonly Line[]): string {
  return lines.map((line) => `- ${line.text}`).join('\n');
}
