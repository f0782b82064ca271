import type { ChatMessage } from '@mem/llm';
import { RETIRED_MARK } from './synthesis/controller.js';

export type LoopLevel = 'L1' | 'L2';

export interface PromptInput {
  level: LoopLevel;
  question: string;
  /** The previous memory M_{t-1}; empty at the start. */
  memory: string;
  /** The chunk C_t: transcript records (L1) or one L1 memory (L2). */
  chunk: string;
  memoryBudget: number;
}

/**
 * The GRU-Mem memory-agent prompt (paper Fig. 10a) adapted to standing questions over agent
 * transcripts: the model sees the question, its previous memory and one chunk, and answers in
 * the four tags. The update gate asks whether the chunk holds evidence for the question.
 */
export function buildPrompt(input: PromptInput): ChatMessage[] {
  const what =
    input.level === 'L1'
      ? 'a section of a coding-agent session transcript'
      : 'one per-question memory of the project';
  const system = [
    'You maintain a bounded memory that answers one standing question about a software project.',
    `You are given the question, your previous memory, and ${what}.`,
    'Read the section, then answer in exactly this format and nothing else:',
    '<think>your brief reasoning about whether the section holds evidence for the question</think>',
    '<check>yes or no: does the section contain new, useful evidence for the question (causes and fixes, decisions and rejected alternatives, open questions, errors with their resolution)? Tool output alone is not evidence.</check>',
    `<update>if yes: the complete new memory — keep every still-relevant detail of the previous memory, add the new evidence, stay under ${input.memoryBudget} tokens. Write one fact per line, each line starting with "- ": no headings, no tables, no paragraphs.</update>`,
    'A good line stands alone: it names its subject (never "this" or "it" pointing at the section), states one fact of the kind the question asks (a decision with its reason and the rejected alternative; a bug with symptom, cause and fix; a question nobody answered), and is never narration of what the agent is about to do ("Let me…"), a cheer, or raw tool output. A proposal the user rejected is not a decision; a question answered later is not open.',
    '<next>continue, or end if the memory already answers the question fully</next>',
    ...(input.level === 'L2'
      ? [
          `A section line "- ${RETIRED_MARK} <line>" names a line of your memory that no per-question memory says any more: leave it out of the memory (it is taken out whatever you answer); the room it frees is for the other lines this section and the next ones offer.`,
        ]
      : []),
  ].join('\n');
  const user = [
    `Question: ${input.question}`,
    '',
    'Previous memory:',
    input.memory === '' ? '(empty)' : input.memory,
    '',
    'Section:',
    input.chunk,
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}
