import { analyzeUnit } from './analysis.js';
import { ASKED_ONLY, questionIntents, type CueFamily } from './cues.js';
import { terms } from './text.js';
import { datesIn, withoutDates, type CalendarDate } from './dates.js';
import { rarity } from './word-frequency.js';

/** What the heuristic knows about a standing question. */
export interface QuestionProfile {
  /**
   * Content term → weight. Specific tokens (names, identifiers, numbers) weigh double; in a
   * factual question a plain word weighs by how rare it is in English (word-frequency.ts).
   */
  weights: Map<string, number>;
  totalWeight: number;
  intents: Set<CueFamily>;
  /** The dates the question names ("in May 2022"): matched by a chunk's date, not by words. */
  dates: CalendarDate[];
  /**
   * A factual question: one that asks for no kind of evidence and names something in particular
   * (a person, a place, a number, a date): "When did Melanie paint a sunrise?". Its plain words
   * weigh by rarity, and a remembered line that matches its terms holds the answer (repeat.ts).
   */
  factual: boolean;
  /** The question as asked. */
  question: string;
}

/**
 * The weight key of a question's dates: covered in every sentence of a chunk that bears one of
 * them (`given` of scoreSentence), never by a sentence's own words.
 */
export const DATE_TERM = '@date';

export interface SentenceScore {
  score: number;
  /** Share of the question's term weight the sentence covers, 0..1. */
  relevance: number;
  matched: string[];
  cues: CueFamily[];
}

/** Weight of a cue family the question asks about, and of one it does not. */
const CUE_WEIGHT = {
  intent: { strong: 0.45, weak: 0.2 },
  other: { strong: 0.1, weak: 0.04 },
} as const;
/** Cues add at most this much, however many families a sentence shows. */
const CUE_CAP = 0.5;
/** Model reasoning ("[thinking] …") is the agent talking to itself: weighed down. */
const THINKING = 0.6;
/** Narration and code-like lines are discounted to this fraction. */
const DISCOUNT = 0.35;

export function profileQuestion(question: string): QuestionProfile {
  const weights = new Map<string, number>();
  const dates = datesIn(question);
  const words = withoutDates(question).split(/\s+/);
  const intents = questionIntents(question);
  const specific = words.map(
    (word, i) => (i > 0 && /^\p{Lu}/u.test(word)) || /\d|[._/]\p{L}/u.test(word),
  );
  // Trigger: a question that asks for no kind of evidence. Why: a factual question names what it
  // is about (all but 6 of LoCoMo's 1,540 questions name a person, a place or a date), and only
  // such a question is answered once and for all; a standing question of a project that happens
  // to carry no cue word ("What is the current state of this project?") names nothing in
  // particular, and each new line about the project is news, not a repeat. Outcome: it is
  // factual only when it names something: a capitalised content word after the first, a number,
  // an identifier or a date.
  const factual =
    intents.size === 0 &&
    (dates.length > 0 || words.some((word, i) => specific[i] && terms(word).length > 0));
  words.forEach((word, i) => {
    // Trigger: a plain word of a factual question ("For how long has Nate had his turtles?").
    // Why: such a question is judged by its terms alone, and a common word ("long") matched
    // anywhere in a chat ("Long time no see!") opened the gate as surely as the rare one that
    // names the topic ("turtles"). Outcome: the plain word weighs by its rarity in spoken
    // English, 0.5 to 2. Any other question keeps its weights: a standing question's words name
    // the kind of finding ("bugs", "decisions"), which the cues judge, or the project as a whole,
    // and the word-frequency table is then never loaded.
    const weight = specific[i] ? 2 : terms(word).length > 0 && factual ? rarity(word) : 1;
    for (const term of terms(word)) weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  });
  // A date is one specific term however many words it is written in.
  if (dates.length > 0) weights.set(DATE_TERM, 2);
  let totalWeight = 0;
  for (const w of weights.values()) totalWeight += w;
  return { weights, totalWeight, intents, dates, factual, question };
}

/**
 * Scores one sentence against a question: term relevance plus evidence cues. `discount`
 * lowers terms that run through the whole chunk (a speaker's name on every turn, a project
 * name on every line): a term everywhere distinguishes nothing. `given` are question terms the
 * chunk as a whole holds for each of its sentences (DATE_TERM when it bears the asked date).
 */
export function scoreSentence(
  profile: QuestionProfile,
  sentence: string,
  discount?: ReadonlyMap<string, number>,
  given?: ReadonlySet<string>,
  chat?: boolean,
): SentenceScore {
  const unit = analyzeUnit(sentence);
  const matched: string[] = [];
  let covered = 0;
  for (const term of given ?? []) {
    const weight = profile.weights.get(term);
    if (weight !== undefined && !unit.terms.has(term)) {
      covered += weight;
      matched.push(term);
    }
  }
  for (const term of unit.terms) {
    const weight = profile.weights.get(term);
    if (weight !== undefined) {
      covered += weight * (discount?.get(term) ?? 1);
      matched.push(term);
    }
  }
  const relevance = profile.totalWeight > 0 ? covered / profile.totalWeight : 0;
  let cueScore = 0;
  // Trigger: a factual question (QuestionProfile.factual: it asks for no kind of evidence).
  // Why: every cue it meets is of a family it did not ask for, and in a chat such words are
  // everywhere ("because", "decided", a question back): they lifted a sentence that only
  // matched a name past the gate (on LoCoMo's tuning half, removing them raised gate precision
  // 48.6 → 52.4 % for recall 57.4 → 55.1 %). Outcome: its sentences are judged by their terms
  // alone; the cues a sentence shows are still reported. Only in a chat (`chat`: the chunk's
  // turns carry their speaker's name; a caller that does not know leaves it undefined): in a
  // coding transcript a factual question ("How does the Stripe webhook integration work?") is
  // answered by a decision's reason, and its "because" is what lifts it past the gate.
  for (const cue of profile.factual && chat !== false ? [] : unit.cues) {
    const asked = profile.intents.has(cue.family);
    if (!asked && ASKED_ONLY.has(cue.family)) continue;
    cueScore += CUE_WEIGHT[asked ? 'intent' : 'other'][cue.strength];
  }
  cueScore = Math.min(cueScore, CUE_CAP);
  let score = relevance + cueScore;
  if (unit.discounted) score *= DISCOUNT;
  if (unit.thinking) score *= THINKING;
  return {
    score: round(score),
    relevance: round(relevance),
    matched: matched.sort(),
    cues: unit.cues.map((c) => c.family),
  };
}

/**
 * Per-term discounts for one chunk: with at least four records, a question term found in
 * more than a fifth of them weighs 1 / (1 + 4·(share − 0.2)) — a quarter when it is in all.
 */
export function chunkDiscounts(
  profile: QuestionProfile,
  records: readonly string[],
): Map<string, number> {
  const out = new Map<string, number>();
  if (records.length < 4) return out;
  const counts = new Map<string, number>();
  for (const record of records) {
    // Terms of whole records are not cached: records are long and read once per query.
    for (const term of new Set(terms(record)))
      if (profile.weights.has(term)) counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  for (const [term, count] of counts) {
    const share = count / records.length;
    if (share > 0.2) out.set(term, 1 / (1 + 4 * (share - 0.2)));
  }
  return out;
}

/** Scores are rounded so that float noise never flips a decision between machines. */
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
