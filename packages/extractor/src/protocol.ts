import { MemError, splitMemoryLines } from '@mem/core';

/** A controller's decision for one chunk, in the paper's four tags. */
export interface GateAnswer {
  /** <think>: the reasoning, recorded in the gate event. */
  think: string;
  /** <check>yes|no</check>: the update gate. */
  update: boolean;
  /** <update>: the candidate memory M̂_t (ignored when the gate is closed). */
  memory: string;
  /** <next>continue|end</next>: the exit gate. */
  exit: boolean;
}

const ANSWER =
  /^\s*<think>([\s\S]*?)<\/think>\s*<check>\s*(yes|no)\s*<\/check>\s*<update>([\s\S]*?)<\/update>\s*<next>\s*(continue|end)\s*<\/next>\s*$/;

/**
 * Strict parser of `<think>…</think><check>yes|no</check><update>…</update><next>continue|end</next>`.
 * Anything else — a missing or repeated tag, text outside the tags, another check value, an
 * open gate with an empty update — is MALFORMED_ANSWER. A malformed answer is never guessed at.
 */
export function parseGateAnswer(text: string): GateAnswer {
  const match = ANSWER.exec(text);
  if (!match) {
    throw new MemError(
      'MALFORMED_ANSWER',
      `malformed controller answer: expected <think>…</think><check>yes|no</check><update>…</update><next>continue|end</next>, got ${JSON.stringify(text.slice(0, 160))}`,
      {
        answer: text.slice(0, 2000),
      },
    );
  }
  const [, think, check, update, next] = match;
  for (const tag of ['think', 'check', 'update', 'next']) {
    if (text.split(`<${tag}>`).length !== 2) {
      throw new MemError(
        'MALFORMED_ANSWER',
        `malformed controller answer: <${tag}> must appear exactly once`,
        { answer: text.slice(0, 2000) },
      );
    }
  }
  const memory = update!.trim();
  if (check === 'yes' && memory === '') {
    throw new MemError(
      'MALFORMED_ANSWER',
      'malformed controller answer: <check>yes</check> with an empty <update>',
      { answer: text.slice(0, 2000) },
    );
  }
  return { think: think!.trim(), update: check === 'yes', memory, exit: next === 'end' };
}

/** The canonical text of an answer; parseGateAnswer(formatGateAnswer(a)) equals a. */
export function formatGateAnswer(answer: GateAnswer): string {
  return `<think>${answer.think}</think>\n<check>${answer.update ? 'yes' : 'no'}</check>\n<update>${answer.update ? answer.memory : ''}</update>\n<next>${answer.exit ? 'end' : 'continue'}</next>`;
}

/**
 * A memory in the one line structure every controller writes: one fact per line, each a `- `
 * bullet. A model that answers in paragraphs, `*` bullets or numbered items states the same
 * lines (splitMemoryLines reads them so); this writes them the canonical way.
 */
export function bulletMemory(memory: string): string {
  return splitMemoryLines(memory)
    .map((line) => `- ${line}`)
    .join('\n');
}
