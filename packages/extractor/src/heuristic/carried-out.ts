import type { ChunkRecord } from '../controller.js';
import { failed } from './error-fix-signals.js';
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
 * A file a request names: a path with a folder (`@packages/coding-agent/docs/hooks.md`,
 * `src/core/sdk.ts`) or a file name with an extension (`custom-tools.md`), without the `@` a
 * harness puts before a mentioned file.
 */
const NAMED_FILE =
  /(?:^|[\s`'"(@])((?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.[A-Za-z][\w]{0,5})(?=$|[\s`'",;:)?!]|\.(?:\s|$))/gu;

/** The files a request names. */
export function namedFiles(text: string): string[] {
  return [...text.matchAll(NAMED_FILE)].map((match) => match[1]!);
}

/** Whether an edited path is a file the request named: the same path, or its trailing part. */
function isNamed(path: string, named: readonly string[]): boolean {
  const edited = path.replace(/\\/gu, '/');
  return named.some((name) => edited === name || edited.endsWith(`/${name}`));
}

/**
 * Whether `records` edit a file `named` lists and that edit's result came back without an error.
 * Trigger: a request or a pending task naming the file it is about ("we need to improve the
 * custom compaction docs in hooks.md", a summary's "update `docs/hooks.md` to document …").
 * Why: editing the very file pointed at is doing the work, whether or not a "Done." follows.
 */
export function editsNamedFile(records: readonly ChunkRecord[], named: readonly string[]): boolean {
  if (named.length === 0) return false;
  // Calls waiting for their results, oldest first: parallel calls ([call, call, result,
  // result]) get their results in call order, and records carry no call id to pair them by.
  const pending: boolean[] = [];
  for (const record of records) {
    if (record.role === 'tool_call') {
      const file = editedFile(record.text);
      pending.push(file !== undefined && isNamed(file, named));
    } else if (record.role === 'tool_result' && (pending.shift() ?? false) && !failed(record.text))
      return true;
  }
  return false;
}

/**
 * Whether the agent's records after a request carry it out: a commit, an edit followed by a
 * report that the work is done, or an edit of a file the request named (`named`) that did not
 * fail (editsNamedFile). `continued`: the records continue a turn that began in an earlier
 * chunk, whose edits that chunk held, so the report alone is enough.
 */
export function carriesOut(
  replies: readonly ChunkRecord[],
  continued = false,
  named: readonly string[] = [],
): boolean {
  if (editsNamedFile(replies, named)) return true;
  let edited = continued;
  for (const record of replies) {
    if (record.role === 'tool_call') {
      if (commitMessage(record.text) !== undefined) return true;
      if (editedFile(record.text) !== undefined) edited = true;
    } else if (edited && reportsDone(record)) return true;
  }
  return false;
}
