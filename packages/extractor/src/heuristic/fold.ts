import type { Tokenizer } from '@mem/chunk';
import { errorFixLine, sameFailure } from './error-fix-line.js';
import { routeLine } from './route.js';
import { scoreSentence, type QuestionProfile } from './score.js';
import { containment, jaccard, termSet } from './text.js';

/** One line of a memory: `- <text>`. */
export interface MemoryItem {
  text: string;
  score: number;
}

/** The label a signal line opens on ("Open: ", "User reports: "): how it was found, not what it says. */
const SIGNAL_LABEL = /^(?:open|unresolved|user reports|user decision|corrected|commit):\s+/i;
/** A commit's label: what follows says what the commit changed, as a changelog line would. */
const COMMIT_LABEL = /^commit:\s+/i;
/** An open line's label: what follows is asked, not settled. */
const OPEN_LABEL = /^(?:open|unresolved):\s+/i;

function unlabelled(text: string): string {
  return text.replace(SIGNAL_LABEL, '');
}

/** Two sentences this similar (content-term Jaccard) say the same thing. */
const DUPLICATE = 0.7;
/**
 * Each line written after an item ages it by this factor when the memory must shed a line:
 * later evidence tends to supersede earlier (a project changes). Mild on purpose: a decision
 * made early in a long session still stands, and a steep factor made the memory a queue that
 * shed its best early lines (the pi compaction transcript lost its first changelog entries).
 */
const AGEING = 0.99;
/**
 * A line half said by another line of the memory is worth less when one must go: five variants
 * of one rename crowd out five other findings. Strength falls by this share of the overlap
 * (content-term Jaccard with the closest other line).
 */
const REDUNDANCY = 0.5;
/**
 * A candidate this much of whose content terms one line of the memory already holds says nothing
 * new ("Commit: add resolveApiKey to before_compact" after the changelog entry that says it):
 * Jaccard misses it, the longer line diluting the overlap, and it would turn the memory over.
 */
const CONTAINED = 0.8;
/**
 * A line just offered must outweigh a remembered one by this share to take its place: between
 * lines of one weight the memory keeps what it holds, so a chunk of findings no better than the
 * memory's weakest does not rewrite it (a queue of equal signals churned every chunk, and each
 * rewrite is an update the gate is charged for).
 */
const INCUMBENCY = 0.1;

/**
 * The lines of a memory with their strength. The memory carries text only, so a line keeps the
 * score it was chosen with when `chosen` knows it (a structural signal outscores its words);
 * a line from elsewhere (a resumed run, a model's memory) is scored by its words.
 */
export function parseMemory(
  profile: QuestionProfile,
  memory: string,
  chosen?: ReadonlyMap<string, number>,
): MemoryItem[] {
  return memory
    .split('\n')
    .map((line) => line.replace(/^\s*-\s+/, '').trim())
    .filter((line) => line !== '')
    .map((text) => ({ text, score: chosen?.get(text) ?? scoreSentence(profile, text).score }));
}

export function renderMemory(items: readonly MemoryItem[]): string {
  return items.map((item) => `- ${item.text}`).join('\n');
}

/**
 * Folds candidate sentences into a bounded memory: skips what the memory already says (a
 * near-duplicate, a line another one contains, a failure it holds as one bug), appends the rest in order, and while the
 * memory is over budget drops its weakest line (lowest score, aged by the lines written after
 * it, lowered by how much another line already says it, a new line handicapped against a
 * remembered one; the oldest on a tie). A lone line still over budget is cut to fit, so the
 * result never exceeds `budget` tokens — by construction, not by hope.
 */
export function foldMemory(
  items: readonly MemoryItem[],
  candidates: readonly MemoryItem[],
  budget: number,
  tokenizer: Tokenizer,
): MemoryItem[] {
  const out = [...items];
  const fresh = out.map(() => false);
  const sets = out.map((item) => termSet(item.text));
  const failures = out.map((item) => errorFixLine(item.text));
  for (const candidate of candidates) {
    const terms = termSet(candidate.text);
    // Labels aside: "Commit: Allow startup without API keys, fixes #288" says nothing the
    // changelog line "Allow startup without API keys: … (#288)" does not; its "commit" would
    // count as a term the memory lacks.
    // Only a commit's label is set aside: "User decision: store vectors in pgvector" is not said
    // by "Open: whether to store vectors in pgvector or in SQLite", whose words it repeats.
    const commit = COMMIT_LABEL.test(candidate.text);
    const point = termSet(unlabelled(candidate.text));
    const failure = errorFixLine(candidate.text);
    // An open line asks; it says no fix or decision that settles it ("Open: the sync loop hangs
    // …" beside "Commit: Fix sync loop hang …"), only the same question asked again.
    const asked = OPEN_LABEL.test(candidate.text) || routeLine(candidate.text) === 'open';
    const said = (set: ReadonlySet<string>, i: number) =>
      out[i]!.text === candidate.text ||
      ((asked || !OPEN_LABEL.test(out[i]!.text)) &&
        (jaccard(set, terms) >= DUPLICATE ||
          containment(commit ? point : terms, set) >= CONTAINED ||
          (failure !== undefined &&
            failures[i] !== undefined &&
            sameFailure(failures[i], failure))));
    if (sets.some(said)) continue;
    // Trigger: a line of this same chunk whose every point the candidate makes, and more
    // ("User reports: scrolling in xterm.js does not work?" beside "Open: scrolling in xterm.js
    // does not work? websearch xterm.js tmux interactions", two signals of one message). Why:
    // kept apart they are one finding twice. Outcome: the fuller line takes the shorter one's
    // place, at the stronger score; labels aside, it must hold every content term of the other
    // (a line that drops "exit code 0" is no fuller one). A remembered line stays: replacing it would be an update
    // the chunk makes for nothing new.
    const within = out.findIndex((item, i) => {
      if (fresh[i] !== true) return false;
      const said = termSet(unlabelled(item.text));
      return said.size > 0 && containment(said, point) === 1;
    });
    if (within >= 0) {
      out[within] = { text: candidate.text, score: Math.max(candidate.score, out[within]!.score) };
      sets[within] = terms;
      failures[within] = failure;
      fresh[within] = true;
      continue;
    }
    out.push(candidate);
    fresh.push(true);
    sets.push(terms);
    failures.push(failure);
  }
  // How much of line i another line of the memory already says (its closest neighbour).
  const overlap = (i: number) => {
    let most = 0;
    for (let j = 0; j < out.length; j++)
      if (j !== i) most = Math.max(most, jaccard(sets[j]!, sets[i]!));
    return most;
  };
  // Shed lines on a cheap per-line estimate first, then confirm with one exact count of the
  // rendered memory (BPE merges across a line break only rarely, so this loop seldom runs twice).
  const lineTokens = out.map((item) => tokenizer.count(`- ${item.text}`));
  let estimate = lineTokens.reduce((sum, n) => sum + n, 0) + out.length - 1;
  const dropWeakest = () => {
    const strength = (i: number) =>
      (out[i]!.score * AGEING ** (out.length - 1 - i) * (1 - REDUNDANCY * overlap(i))) /
      (fresh[i] ? 1 + INCUMBENCY : 1);
    let weakest = 0;
    for (let i = 1; i < out.length; i++) if (strength(i) < strength(weakest)) weakest = i;
    estimate -= lineTokens[weakest]! + 1;
    out.splice(weakest, 1);
    lineTokens.splice(weakest, 1);
    sets.splice(weakest, 1);
    fresh.splice(weakest, 1);
  };
  while (out.length > 1 && estimate > budget) dropWeakest();
  while (out.length > 1 && tokenizer.count(renderMemory(out)) > budget) dropWeakest();
  if (out.length === 1 && tokenizer.count(renderMemory(out)) > budget)
    out[0] = cutToBudget(out[0]!, budget, tokenizer);
  return out;
}

function cutToBudget(item: MemoryItem, budget: number, tokenizer: Tokenizer): MemoryItem {
  const words = item.text.split(/\s+/);
  let low = 0;
  let high = words.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (tokenizer.count(`- ${words.slice(0, mid).join(' ')}…`) <= budget) low = mid;
    else high = mid - 1;
  }
  return { text: `${words.slice(0, low).join(' ')}…`, score: item.score };
}
