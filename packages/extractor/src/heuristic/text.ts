import { eng } from 'stopword';
import { stemmer } from 'stemmer';

/*
 * Word-level text handling for the heuristic controller: sentence splitting, content terms
 * (stopwords out, Porter stems), and a cheap redundancy measure. Deterministic and
 * locale-free: the same text gives the same terms on every machine.
 */

const STOPWORDS = new Set([
  ...eng,
  // Words that carry no topic in a question about a project history.
  'what',
  'which',
  'who',
  'whom',
  'when',
  'where',
  'why',
  'how',
  'was',
  'were',
  'did',
  'does',
  'do',
  'made',
  'make',
  'get',
  'got',
  'also',
  'just',
  'like',
  'use',
  'used',
  'using',
  'would',
  'could',
  'should',
  'can',
  'will',
  'let',
  'lets',
  'ok',
  'okay',
  'yes',
  'no',
  'now',
  'then',
  'there',
  'here',
  'this',
  'that',
  'these',
  'those',
  'it',
  'its',
  'we',
  'you',
  'i',
  'me',
  'my',
  'our',
  'your',
  'they',
  'them',
  'their',
]);

const stemCache = new Map<string, string>();

function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word);
    if (stemCache.size < 200_000) stemCache.set(word, stemmed);
  }
  return stemmed;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'’-]*/gu;

/** Content terms of `text`: lowercase words minus stopwords, Porter-stemmed, in order. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    // "Jon's" and "dogs'" are Jon and dogs: possessives carry no term of their own.
    const word = match[0].replace(/['’]s$/u, '').replace(/['’-]+$/u, '');
    if (word.length < 2 || STOPWORDS.has(word) || /^\d{1,2}$/.test(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** Distinct content terms. */
export function termSet(text: string): Set<string> {
  return new Set(terms(text));
}

const MAX_SENTENCE_CHARS = 600;
/** A message this short is one thought: it is judged and kept whole (a chat turn, a short reply). */
const WHOLE_MESSAGE_WORDS = 60;

/**
 * The units a message is judged in: the whole message when it is short and holds no code,
 * else its sentences. A short turn ("Hey John! I got a puppy. Her name's Coco.") answers a
 * question only as a whole; a long assistant message is judged sentence by sentence.
 */
export function units(text: string): string[] {
  const trimmed = text.trim();
  // A message of several lines is a list or a layout, judged line by line (a short status
  // message with a heading, a table and a cheer is not one thought).
  if (
    trimmed !== '' &&
    !trimmed.includes('\n') &&
    trimmed.split(/\s+/).length <= WHOLE_MESSAGE_WORDS
  ) {
    const flat = trimmed.replace(/\s*\n\s*/g, ' ');
    return flat.length >= 12 && /\p{L}{3}/u.test(flat) ? [clip(flat)] : [];
  }
  return sentences(text);
}

/**
 * Splits prose into sentences: on line breaks (transcripts are full of bullets and code
 * lines) and after `.`, `!`, `?` followed by a space. Code fences and very short fragments
 * are dropped; very long sentences are cut at a word boundary with an ellipsis.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let inFence = false;
  // A list's lead-in ("We decided on the following:") names what its items are about: each
  // item carries it, so the item is self-contained and the list is kept whole.
  let leadIn: string | undefined;
  // A lead-in no list follows ("The issue might be the config. Let me try this:" before a tool
  // call) is prose after all: its sentences are split like any other line's.
  let unused: string | undefined;
  const split = (bare: string) => {
    for (const piece of bare.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'`([])/u)) {
      const sentence = piece.trim();
      if (sentence.length < 12 || !/\p{L}{3}/u.test(sentence)) continue;
      out.push(clip(sentence));
    }
  };
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line.startsWith('```')) {
      inFence = !inFence;
      continue;
    }
    if (inFence || line === '') continue;
    const item = LIST_ITEM.test(line);
    if (!item) leadIn = undefined;
    if (unused !== undefined && !item) split(unused);
    unused = undefined;
    const bare = line.replace(/^(?:[-*+]\s+|\d+[.)]\s+|#+\s+|>\s*)/u, '');
    if (!item && /:\s*$/.test(bare) && bare.split(/\s+/).length >= 4) {
      leadIn = bare.replace(/[\s:]+$/u, '');
      unused = bare;
      continue;
    }
    if (item && leadIn !== undefined) {
      if (bare.length >= 12) out.push(clip(`${leadIn}: ${bare}`));
      continue;
    }
    split(bare);
  }
  if (unused !== undefined) split(unused);
  return out;
}

const LIST_ITEM = /^(?:[-*+]\s+|\d+[.)]\s+)/u;

/** Items this short are parts of one statement: the list stays one line. */
const SHORT_ITEM_WORDS = 12;
/**
 * An item and its sub-items this short in all are one statement however long one sub-item is:
 * "Issue #296 - Created issue documenting OAuth/API key mess" with what the issue documents and
 * proposes (9 and 13 words) was two lines that each repeated the item. Three short items' worth.
 */
const ONE_LINE_WORDS = 3 * SHORT_ITEM_WORDS;

/** An opening parenthesis, or an opening backtick (an odd count of them), at the very end. */
const cutItem = (line: string) =>
  /\(\s*$/u.test(line) || (/`\s*$/u.test(line) && (line.match(/`/gu)?.length ?? 0) % 2 === 1);

/**
 * The items of a list section, kept whole: each item one line; an item's sub-items carry it
 * as their lead-in when it is short (a task id, a file), and a list of short items under one
 * lead-in, or an item whose sub-items fit one line with it, is one line ("Alternatives: a; b; c"). A line outside any list is an item of its own.
 * `keep`, when given, drops the list lines it refuses (a top-level one with its sub-items)
 * before they are grouped; a sub-item of a refused line that `stands` (a finding said in full on
 * its own line) is read all the same, as a line of its own or of the nearest kept parent.
 */
export function listItems(
  text: string,
  keep?: (line: string) => boolean,
  stands?: (line: string) => boolean,
): string[] {
  const items: string[] = [];
  let parent: { text: string; children: string[]; indents: number[] } | undefined;
  const close = () => {
    if (parent === undefined) return;
    const { text: head, indents } = parent;
    // A sub-item that leads in to sub-items of its own ("Refinements:") says nothing once they
    // were all refused: it is left out, not joined as "Refinements:; …".
    const children = parent.children.filter(
      (child, i) => !/:\s*$/u.test(child) || (indents[i + 1] ?? -1) > indents[i]!,
    );
    const lead = head.replace(/[\s:]+$/u, '');
    const words = [head, ...children].reduce((n, text) => n + text.split(/\s+/).length, 0);
    if (children.length === 0) items.push(head);
    else if (
      children.every((c) => c.split(/\s+/).length <= SHORT_ITEM_WORDS) ||
      words <= ONE_LINE_WORDS
    )
      items.push(`${lead}: ${children.join('; ').replace(/:;\s/gu, ': ')}`);
    else {
      if (!/:\s*$/.test(head) && head.split(/\s+/).length > SHORT_ITEM_WORDS) items.push(head);
      const short = lead.split(/\s+/).length <= SHORT_ITEM_WORDS;
      for (const child of children) items.push(short ? `${lead}: ${child}` : child);
    }
    parent = undefined;
  };
  // A fenced block is code or a sample payload, never an item: its lines ("{", "\"cwd\": …")
  // grouped as a list became lines such as `{: "session_id": "abc123",; …`.
  let inFence = false;
  const lines = text.split('\n').filter((raw) => {
    if (raw.trim().startsWith('```')) {
      inFence = !inFence;
      return false;
    }
    return !inFence && raw.trim() !== '';
  });
  // Indentation counts from the section's own margin: a summary nests its whole list under a
  // numbered heading ("2. Key Technical Concepts:" then "   - …"), and those are top-level items.
  const margin = Math.min(...lines.map((raw) => raw.length - raw.trimStart().length));
  let refused = false;
  // A refused sub-item takes its own sub-items with it ("Decision: diagrams were added to
  // docs/x.md to illustrate:" and what they illustrate): the indent it was refused at, or none.
  let refusedBelow: number | undefined;
  for (const raw of lines) {
    const indent = raw.length - raw.trimStart().length - margin;
    const below = refusedBelow !== undefined && indent > refusedBelow;
    const bare = raw
      .trim()
      .replace(/^(?:[-*+]\s+|\d+[.)]\s+)/u, '')
      .replace(/^\*\*([^*]+?):?\*\*:?/u, '$1:')
      .replace(/\*\*/g, '');
    // A list line that stops on an opening bracket or backtick ("**During theme switch (`") was
    // cut off by the transcript (an interrupted reply): it says nothing yet, and joined to its
    // siblings it would leave their line hanging.
    const cut = cutItem(bare);
    // Under a refused line: only a sub-item that states its own finding in full is read
    // ("Introduced a callout renderer in the CLI:" then "Rendered with resvg instead of
    // Chromium, because Chromium adds 150 MB": the stop-33 reviewer's item).
    if (below || (indent > 1 && refused)) {
      if (cut || stands === undefined || !stands(bare) || (keep !== undefined && !keep(bare)))
        continue;
      if (below && parent !== undefined) {
        parent.children.push(bare);
        parent.indents.push(indent);
      } else {
        close();
        parent = { text: bare, children: [], indents: [] };
      }
      continue;
    }
    refusedBelow = undefined;
    if (cut || (keep !== undefined && !keep(bare))) {
      if (indent <= 1) {
        close();
        refused = true;
      } else refusedBelow = indent;
      continue;
    }
    refused = false;
    if (indent <= 1 || parent === undefined) {
      close();
      parent = { text: bare, children: [], indents: [] };
    } else {
      parent.children.push(bare);
      parent.indents.push(indent);
    }
  }
  close();
  return items
    .map((item) => clip(item.replace(/\s+/g, ' ').trim()))
    .filter((item) => item.length >= 12 && /\p{L}{3}/u.test(item) && !/:\s*$/.test(item));
}

function clip(sentence: string): string {
  if (sentence.length <= MAX_SENTENCE_CHARS) return sentence;
  const cut = sentence.slice(0, MAX_SENTENCE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_SENTENCE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Jaccard similarity of two term sets. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** The share of `part`'s terms that `whole` holds: how much of `part` it already says. */
export function containment(part: ReadonlySet<string>, whole: ReadonlySet<string>): number {
  if (part.size === 0) return 0;
  let shared = 0;
  for (const term of part) if (whole.has(term)) shared += 1;
  return shared / part.size;
}

/**
 * Whether a unit names something a reader can look up: a code span or quoted string, an
 * identifier (camelCase, PascalCase, ALLCAPS), a name with a digit, a dot, a slash or a colon
 * inside it (Next.js, src/, localhost:3001), or a capitalised word past the first (a product,
 * a person).
 */
export function namesSomething(text: string): boolean {
  if (/`[^`]+`|"[^"]+"/u.test(text)) return true;
  return text
    .split(/\s+/u)
    .some(
      (word, i) =>
        /\p{Ll}\p{Lu}|\p{Lu}{2,}|\d|\w[./:\\]\w/u.test(word) || (i > 0 && /^\p{Lu}/u.test(word)),
    );
}
