import type { ChunkRecord } from '../controller.js';
import { commitMessage, editedFile } from './run-signals.js';

/*
 * A user's request phrased as a question ("can we use the same colours as the dark theme?") or
 * a problem report is not left open when the agent then does it: a person reading the session
 * would not list it. What shows it was done, without a model: the agent changed files in its
 * turn and then says so ("Done. Added …", "`AgentSession` now takes …"), or committed.
 */

/**
 * A sentence of the agent's that reports work finished: "Done.", "Added an ASCII diagram …",
 * "All checks pass.", "X is now …", "Now we have: …". Narration of a next step ("Now let me
 * add the changelog entry") reports nothing.
 */
const DONE_SENTENCE =
  /^(?:done\b|all (?:checks|tests) pass|(?:i(?:'ve| have) )?(?:added|created|fixed|implemented|updated|removed|changed|replaced|rewrote|wrote|moved|renamed|committed|pushed)\b)|\b(?:is|are) now\b|^now (?:we have|`?[\w.]+`? (?:has|uses|takes|gets|shows|returns))\b/i;

const SENTENCE_BREAK = /(?<=[.!?])\s+|\n+/u;

function reportsDone(record: ChunkRecord): boolean {
  if (record.role !== 'assistant' || record.text.startsWith('[thinking]')) return false;
  return record.text
    .split(SENTENCE_BREAK)
    .some((sentence) => DONE_SENTENCE.test(sentence.replace(/^[^\p{L}]+/u, '')));
}

/**
 * Whether the agent's records after a request carry it out: a commit, or an edit followed by a
 * report that the work is done. `continued`: the records continue a turn that began in an
 * earlier chunk, whose edits that chunk held, so the report alone is enough.
 */
export function carriesOut(replies: readonly ChunkRecord[], continued = false): boolean {
  let edited = continued;
  for (const record of replies) {
    if (record.role === 'tool_call') {
      if (commitMessage(record.text) !== undefined) return true;
      if (editedFile(record.text) !== undefined) edited = true;
    } else if (edited && reportsDone(record)) return true;
  }
  return false;
}
