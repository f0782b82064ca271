import type { ChunkRecord } from '../controller.js';
import { isChatter } from './chatter.js';
import { failed, symptomOf } from './error-fix-signals.js';
import { callKey } from './run-signals.js';
import type { Signal } from './summary-signals.js';
import { namesSomething, sentences, termSet } from './text.js';

/*
 * An agent that only guesses at a cause ("might be related to the configuration") and moves
 * on has left a question open: the next session should not take the guess for a finding. A
 * later sentence of the chunk that confirms or fixes the same thing closes it.
 */

const HEDGED =
  /\b(?:might|may|could) (?:be|have been) (?:related to|caused by|due to|because of|coming from)\b|\bnot sure (?:why|what|whether|if)\b|\bunclear (?:why|what|whether)\b/i;
const SETTLES =
  /\b(?:confirmed|fixed|resolved|turned out|the (?:root )?cause (?:was|is)|was caused by)\b/i;
const COMMAND_CHARS = 80;

/** A failing tool run: the command (or file) it ran and the line that says what went wrong. */
export interface Failure {
  command: string;
  symptom: string | undefined;
}

/**
 * The failing run a guess is about, said before it, so the open line names what failed.
 * Trigger: a guess that names nothing ("The build issue might be related to the
 * configuration."). Why: read in a note, away from the run it followed, it says nothing a
 * reader can look up; the run it follows is its subject (`npm run build` failing with
 * "TypeError: generate is not a function"). Outcome: the line leads with the run and its
 * symptom; a guess that names nothing and follows no failing run is no line.
 */
function withFailure(
  sentence: string,
  failure: Failure | undefined,
): { line: string; leftFailing?: true } | undefined {
  if (namesSomething(sentence)) return { line: sentence };
  if (failure === undefined) return undefined;
  const command =
    failure.command.length > COMMAND_CHARS
      ? `${failure.command.slice(0, COMMAND_CHARS).trimEnd()}…`
      : failure.command;
  const symptom = failure.symptom?.replace(/^\[(.*)\]$/u, '$1').replace(/"/gu, "'");
  const lead = /^\p{Lu}\p{Ll}/u.test(sentence)
    ? sentence[0]!.toLowerCase() + sentence.slice(1)
    : sentence;
  const line = `\`${command}\` failed${symptom === undefined ? '' : ` with "${symptom}"`}; ${lead}`;
  return { line, leftFailing: true };
}

/**
 * One open line per hedged diagnosis that no later sentence of the chunk settles. `before`: the
 * latest failure of the transcript's earlier chunks that no rerun has passed yet (a chunk
 * boundary often falls between a failing run and the agent's guess about it).
 */
export function hedgedDiagnosisSignals(
  records: readonly ChunkRecord[],
  before?: Failure,
): Signal[] {
  const said: { sentence: string; failure: Failure | undefined }[] = [];
  let call: string | undefined;
  let failure = before;
  for (const record of records) {
    if (record.role === 'tool_call') call = record.text;
    else if (record.role === 'tool_result' && call !== undefined && failed(record.text))
      failure = { command: callKey(call), symptom: symptomOf(record.text) };
    else if (record.role === 'assistant' && !record.text.startsWith('[thinking]'))
      for (const sentence of sentences(record.text))
        if (!isChatter(sentence)) said.push({ sentence, failure });
  }
  const out: Signal[] = [];
  said.forEach(({ sentence, failure }, i) => {
    if (!HEDGED.test(sentence)) return;
    const terms = termSet(sentence);
    // Settled: a later confirmation or fix that names the guess's subject and its suspect
    // (two of its terms): one shared word ("build") is a different fix of a long session.
    const settled = said
      .slice(i + 1)
      .some(
        ({ sentence: later }) =>
          SETTLES.test(later) && [...termSet(later)].filter((t) => terms.has(t)).length >= 2,
      );
    const led = settled ? undefined : withFailure(sentence.trim(), failure);
    if (led === undefined) return;
    const signal: Signal = { text: `Unresolved: ${led.line}`, family: 'open' };
    out.push(led.leftFailing ? { ...signal, leftFailing: true } : signal);
  });
  return out;
}
