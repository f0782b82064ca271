import type { Tokenizer } from '@mem/chunk';
import { seededRandom } from '@mem/core';
import type { Controller, ControllerAnswer, ControllerInput } from '../controller.js';
import { formatGateAnswer } from '../protocol.js';
import { foldMemory, parseMemory, renderMemory, type MemoryItem } from './fold.js';
import {
  DATE_TERM,
  chunkDiscounts,
  profileQuestion,
  scoreSentence,
  type QuestionProfile,
  type SentenceScore,
} from './score.js';
import { analyzeUnit } from './analysis.js';
import { bearsDate, datesIn } from './dates.js';
import { isChatter, withoutChatter } from './chatter.js';
import { isVenting } from './hollow.js';
import {
  addsTests,
  asksLeave,
  cutFromCode,
  editMishap,
  editsDocumentation,
  precedentCovers,
  withoutPrecedent,
  judgesDocument,
  namesTopic,
  offersOption,
  plansStep,
  pointsAway,
  reportsStatus,
  statusRemainder,
} from './not-findings.js';
import { changelogSignals } from './changelog-signals.js';
import { adoptedSuggestionSignals, choiceSignals } from './choice-signals.js';
import { concessionSignals } from './concession-signals.js';
import { errorFixSignals, latestOpenFailure, type ErrorFixCarry } from './error-fix-signals.js';
import { heldAnswer } from './repeat.js';
import { labelledBugs } from './labelled-bug-signals.js';
import { isToolFailure, isUnsettled, routeLine, routedKinds, type LineKind } from './route.js';
import { commitSignals } from './run-signals.js';
import type { Signal } from './summary-signals.js';
import { findingsSignals } from './findings-signals.js';
import { hedgedDiagnosisSignals, type Failure } from './hedge-signals.js';
import { userReportSignals } from './malfunction-signals.js';
import { reportedCrashSignals } from './report-signals.js';
import { recordSections, sectionSignals } from './summary-signals.js';
import { doneLater, pendingWork } from './pending-work.js';
import {
  QUESTION,
  answersOpen,
  correctionSignals,
  turnEndIn,
  openQuestionSignals,
} from './talk-signals.js';
import { sentences, units } from './text.js';
import { chatSpeakers, speakerOf, withSpeaker, withoutAddress } from './speakers.js';
import { withMeaning } from './chat-meaning.js';

export interface HeuristicOptions {
  /** A sentence must score this much for the L1 update gate to open. */
  threshold?: number;
  /** At most this many sentences of one chunk enter the memory. */
  perChunk?: number;
  /** Once the gate is open, units scoring at least this share of the threshold are folded… */
  foldShare?: number;
  /** …and at least this share of the chunk's best unit (a chunk's side remarks stay out). */
  foldRelative?: number;
  /** The exit gate says `end` once the memory fills this share of its budget. */
  exitFill?: number;
  /**
   * Who opens the update gate. `score` (the controller) opens it when a sentence reaches the
   * threshold. The baselines of `mem eval gate` keep the same fold and budget but replace the
   * decision: `always` opens it on every chunk; `random` opens it with probability `rate`
   * (a seeded generator, so runs repeat).
   */
  gate?: { kind: 'score' } | { kind: 'always' } | { kind: 'random'; rate: number; seed: number };
}

/** Roles whose text is judged at L1: what people and the agent *said*, not raw tool output. */
const PROSE = new Set(['user', 'assistant', 'summary', 'memory']);

interface Candidate extends SentenceScore {
  text: string;
  /** A riding signal (Signal.rides): folded with the others, never the one that opens the gate. */
  rides?: boolean;
}

/**
 * The embedded default controller: deterministic and model-free, answering in the same
 * tagged protocol as a model so the same strict parser runs. It judges a chunk by how its
 * prose bears on the question (term relevance) plus cues of evidence (causes and fixes,
 * decisions and alternatives, open questions, errors with their resolution), and updates by
 * folding the best sentences into a bounded memory, dropping the weakest when full.
 */
export function heuristicController(
  tokenizer: Tokenizer,
  options: HeuristicOptions = {},
): Controller {
  const threshold = options.threshold ?? 0.4;
  const perChunk = options.perChunk ?? 8;
  const foldShare = options.foldShare ?? 0.25;
  const foldRelative = options.foldRelative ?? 0;
  const exitFill = options.exitFill ?? 0.9;
  const gate = options.gate ?? { kind: 'score' };
  const random = gate.kind === 'random' ? seededRandom(gate.seed) : null;
  const profiles = new Map<string, QuestionProfile>();
  const profileOf = (question: string) => {
    let profile = profiles.get(question);
    if (!profile) profiles.set(question, (profile = profileQuestion(question)));
    return profile;
  };
  // Per question: the memory this controller last answered and the score of each of its lines,
  // so that a remembered signal line is weighed as the evidence it was, not re-read as plain
  // words. Keyed by the exact memory text: any other memory (a resumed run, another project)
  // is scored by its words, so the answer depends only on the run's own inputs.
  // It also keeps the open questions that chunk asked in its last turn: the next chunk's
  // opening reply can answer only those.
  // And the open lines a later chunk answered while the memory did not change: they leave with
  // the next update, whichever chunk makes it.
  const lastAnswered = new Map<
    string,
    {
      memory: string;
      scores: Map<string, number>;
      lastTurn: Map<string, 'user' | 'agent'>;
      closed: Set<string>;
    }
  >();
  // Per transcript: the failures its latest chunk left open, so a pass in the next chunk pairs
  // with them, and that chunk's error → fix lines, so every question asked of one chunk reads
  // the same lines (the chunk is offered once per standing query).
  // It also keeps what the chunk inherited: the failure still open when it began, which a guess
  // at its cause names (hedge-signals.ts).
  const failures = new Map<
    string,
    { text: string; signals: Signal[]; carry: ErrorFixCarry; before: ErrorFixCarry | undefined }
  >();
  // Per transcript: the pending items its summaries named a file in, until a chunk edits it.
  const pending = pendingWork();
  const errorFixOf = (
    chunk: ControllerInput['chunk'],
  ): { signals: Signal[]; before: Failure | undefined } => {
    if (chunk.source === undefined)
      return { signals: errorFixSignals(chunk.records).signals, before: undefined };
    const last = failures.get(chunk.source);
    if (last?.text === chunk.text)
      return { signals: last.signals, before: latestOpenFailure(last.before) };
    const read = errorFixSignals(chunk.records, last?.carry);
    failures.set(chunk.source, {
      text: chunk.text,
      signals: read.signals,
      carry: read.carry,
      before: last?.carry,
    });
    return { signals: read.signals, before: latestOpenFailure(last?.carry) };
  };

  return {
    name: gate.kind === 'score' ? 'heuristic' : `baseline-${gate.kind}`,
    model: gate.kind === 'score' ? 'heuristic' : `baseline-${gate.kind}`,
    maxAttempts: 1,
    strictBudget: false,
    async answer(input: ControllerInput): Promise<ControllerAnswer> {
      const started = performance.now();
      const profile = profileOf(input.question);
      const candidates = scoreChunk(profile, input, errorFixOf(input.chunk));
      const best = candidates.find((c) => c.rides !== true);
      const gateThreshold = input.level === 'L2' || gate.kind !== 'score' ? 0 : threshold;
      const last = lastAnswered.get(input.question);
      const remembered = parseMemory(
        profile,
        input.memory,
        last?.memory === input.memory ? last.scores : undefined,
      );
      // Questions the previous chunk left open and this one opens by answering are no longer open.
      const answered = profile.intents.has('open')
        ? answersOpen(
            remembered.map((item) => item.text),
            input.chunk.records,
            last?.memory === input.memory ? last.lastTurn : undefined,
          )
        : [];
      // Trigger: a chunk that answers an open line but writes nothing (its gate stays shut). Why:
      // an update of its own would cost the rate ingest holds to 30 %, and the turn that did the
      // work often spans chunks none of which opens the gate. Outcome: the line is marked closed
      // and leaves with the next update.
      const closed = new Set(last?.memory === input.memory ? last.closed : []);
      for (const i of answered) closed.add(remembered[i]!.text);
      if (profile.intents.has('open'))
        for (const text of pending.done(
          input.question,
          input.chunk,
          remembered.map((item) => item.text),
        ))
          closed.add(text);
      // Read only by an update, which folds in at least one line: the memory is never empty.
      const previous = remembered.filter((item) => !closed.has(item.text));
      let update = false;
      let next: MemoryItem[];
      let think: string;
      const opened =
        gate.kind === 'always'
          ? true
          : gate.kind === 'random'
            ? random!() < gate.rate
            : best !== undefined && best.score >= gateThreshold;
      const held =
        best !== undefined && opened && gate.kind === 'score'
          ? heldAnswer(profile, remembered, best)
          : undefined;
      if (held !== undefined) {
        think = `The best sentence scores ${best!.score}${describe(best!)}, but the memory already holds a line that matches the same question terms: "${held.text.slice(0, 80)}".`;
        next = remembered;
      } else if (!best || !opened) {
        think = best
          ? `No prose sentence reaches ${gateThreshold}: the best scores ${best.score}${describe(best)}.`
          : 'The chunk has no prose to judge (tool output only).';
        // The answered question leaves only with an update the chunk makes anyway, never by one
        // of its own: an update costs every line something (ageing), and ingest allows 30 %.
        next = remembered;
      } else {
        const prefix = input.level === 'L2' && input.chunk.label ? `[${input.chunk.label}] ` : '';
        const chosen: MemoryItem[] = candidates
          .filter((c) => c.score >= Math.max(gateThreshold * foldShare, best.score * foldRelative))
          .slice(0, input.level === 'L2' ? perChunk + 1 : perChunk)
          .map((c) => ({ text: `${prefix}${c.text}`, score: c.score }));
        const folded = foldMemory(previous, chosen, input.memoryBudget, tokenizer);
        // Trigger: a fold in which no line of this chunk survives (each was said already, or
        // the budget shed the chunk's own line along with an older one). Why: the memory would
        // only lose lines — an update that adds nothing, charged to the gate all the same (the
        // demo's bugs note lost a remembered line to a chunk whose line it then shed too).
        // Outcome: the memory stays as it was; closed open lines wait for an update that adds.
        const held = new Set(remembered.map((item) => item.text));
        const adds = folded.some((item) => !held.has(item.text));
        next = adds ? folded : remembered;
        update = adds && renderMemory(next) !== renderMemory(remembered);
        think = update
          ? `The best sentence scores ${best.score} ≥ ${gateThreshold}${describe(best)}; ${chosen.length} sentence${chosen.length === 1 ? '' : 's'} folded into memory.`
          : `The best sentence scores ${best.score}${describe(best)}, but the memory already holds what it says, or holds lines that outweigh it.`;
      }
      const memory = renderMemory(next);
      lastAnswered.set(input.question, {
        memory,
        scores: new Map(next.map((item) => [item.text, item.score])),
        closed: new Set(next.filter((item) => closed.has(item.text)).map((item) => item.text)),
        lastTurn: !profile.intents.has('open')
          ? new Map<string, 'user' | 'agent'>()
          : new Map([
              // Trigger: a chunk in which the user never ends the agent's turn (never speaks,
              // or only adds to the work while it runs: turnEndIn). Why: it is the middle of
              // one long turn, and the requests that opened it may be done in the next chunk.
              // Outcome: the previous chunk's last-turn questions stay answerable.
              ...(turnEndIn(input.chunk.records) < 0 && last?.memory === input.memory
                ? last.lastTurn
                : []),
              ...openQuestionSignals(input.chunk.records).flatMap((s) =>
                s.lastTurn === undefined ? [] : [[s.text, s.lastTurn] as const],
              ),
            ]),
      });
      const exit = memory !== '' && tokenizer.count(memory) >= exitFill * input.memoryBudget;
      const text = formatGateAnswer({ think, update, memory: update ? memory : '', exit });
      return { text, latencyMs: performance.now() - started };
    },
  };
}

/** A signal of the question's own kind outscores any prose sentence: it is evidence by construction. */
const SIGNAL_SCORE = 1;
/**
 * An inferred signal's share of SIGNAL_SCORE. Trigger: a line the heuristic paired from tool runs
 * (Signal.inferred). Why: when the memory is full, a bug a summary or a person stated must outrank
 * one the heuristic read off a failing and a passing run — in long sessions such pairs come by the
 * dozen and, at the same score, the newest crowded the stated ones out by age alone. Outcome: it
 * still opens the gate and outranks prose of its relevance, but a stated line of the same
 * relevance outlasts it until about 22 newer lines have aged that line (0.99²² ≈ 0.8).
 */
const INFERRED = 0.8;

/**
 * Candidate lines of the chunk, best first (ties keep transcript order): the signals of the
 * question's kind read off the chunk's structure (summary sections, error then pass, user
 * corrections and the agent's concessions of them, commits, unanswered questions), then its
 * prose sentences judged by relevance and cues. Chatter never becomes a candidate; a proposal the user rejected is no evidence.
 */
function scoreChunk(
  profile: QuestionProfile,
  input: ControllerInput,
  errorFix: { signals: readonly Signal[]; before: Failure | undefined },
): Candidate[] {
  const out: Candidate[] = [];
  const records = input.chunk.records;
  const corrections = correctionSignals(records);
  const signals = [
    ...corrections.signals,
    ...choiceSignals(records),
    ...adoptedSuggestionSignals(records),
    ...concessionSignals(records),
    ...errorFix.signals,
    ...reportedCrashSignals(records),
    ...userReportSignals(records),
    ...commitSignals(records),
    ...changelogSignals(records),
    ...openQuestionSignals(records),
    ...hedgedDiagnosisSignals(records, errorFix.before),
    // An agent's list of what it means to do ("The cleanest approach would be to: 1. Add
    // `apiKeys?` to …") is its plan, not a finding (not-findings.ts).
    ...findingsSignals(records).filter((signal) => !plansStep(signal.text)),
  ];
  // The notes a line may enter are decided by what the line is (route.ts), where the question
  // asks for a kind of finding; the L2 synthesis and factual questions read every line.
  const kinds = input.level === 'L1' ? routedKinds(input.question) : new Set<LineKind>();
  // A question in speech is a line only as openQuestionSignals' "Open:" line (see the prose loop).
  const asksInSpeech = (spoken: boolean, text: string) =>
    kinds.size > 0 && spoken && QUESTION.test(text);
  // Trigger: a line that edits the docs or offers an option (not-findings.ts), asked by a
  // question routed by kinds. Why: its cue words ("fixed", "instead of") made it a decision or a
  // bug, and such a line alone opened the gate for a chunk that decided and fixed nothing.
  // Outcome: it is no candidate, unless it is an open question. So too a list of tests added, an
  // item that reports only "Done" (a report's section made them bugs) and a topic named as a
  // heading names it ("When to use X vs alternatives": its "alternatives" made it a decision).
  const notAsked = (text: string) =>
    kinds.size > 0 &&
    (cutFromCode(text) ||
      ((editsDocumentation(text) ||
        offersOption(text) ||
        addsTests(text) ||
        reportsStatus(text) ||
        namesTopic(text) ||
        (judgesDocument(text) && !kinds.has('cause') && !kinds.has('tool')) ||
        (editMishap(text) && kinds.has('cause'))) &&
        routeLine(text) !== 'open'));
  const prose: {
    text: string;
    pieces: string[];
    spoken: boolean;
    agent: boolean;
    proposal: (text: string) => boolean;
  }[] = [];
  records.forEach((original, i) => {
    if (!PROSE.has(original.role) || corrections.rejected.has(i) || original.pasted !== undefined)
      return;
    // An agent's "**Issue**: / **Root cause**: / **Fix**:" lines are one bug line, not prose.
    const labelled = labelledBugs(original);
    signals.push(...labelled.signals);
    const record = labelled.signals.length > 0 ? { ...original, text: labelled.rest } : original;
    const { sections, lead } = recordSections(record);
    const spoken = record.role === 'user' || record.role === 'assistant';
    const agent = record.role === 'assistant';
    // A proposal that ends asking leave to carry it out decides nothing yet; code brought in line
    // with a pattern the project's other code set decides nothing new (not-findings.ts).
    const leave = agent && kinds.has('decision') && asksLeave(record.text);
    const precedent = agent && kinds.has('decision') ? precedentCovers(record.text) : () => false;
    const proposal = (text: string) => leave || precedent(text);
    if (sections.length > 0) {
      const typed = sectionSignals(sections);
      // An agent's report ends its headed lists with "Ready for custom-tools.md or rpc.md?".
      // A pending item the chunk then does (an edit of the file it names) is not open.
      signals.push(
        ...typed.signals.filter(
          (signal) =>
            !asksInSpeech(spoken, signal.text) &&
            !doneLater(signal, records.slice(i + 1)) &&
            !(kinds.size > 0 && agent && plansStep(signal.text)) &&
            !(proposal(signal.text) && signalKinds(signal)?.has('decision') === true),
        ),
      );
      prose.push({
        text: record.text,
        pieces: [lead, ...typed.prose].flatMap((text) => sentences(text)),
        spoken,
        agent,
        proposal,
      });
    } else {
      // An L1 memory is judged line by line: each line is already one finding.
      prose.push({
        text: record.text,
        pieces:
          record.role === 'memory'
            ? record.text
                .split('\n')
                .map((line) => line.replace(/^\s*-\s+/, '').trim())
                .filter((line) => line !== '')
            : units(record.text),
        spoken,
        agent,
        proposal,
      });
    }
  });
  // A chunk dated on the day or month the question names holds that date for every sentence.
  const given =
    profile.dates.length > 0 && bearsDate(profile.dates, datesIn(input.chunk.text))
      ? new Set([DATE_TERM])
      : undefined;
  const chat = profile.factual ? chatSpeakers(prose.map((p) => p.text)) : new Set<string>();
  for (const signal of signals) {
    if (isChatter(signal.text) || notAsked(signal.text)) continue;
    const scored = scoreSentence(profile, signal.text, undefined, given, chat.size > 0);
    const kind = kinds.size > 0 ? signalKinds(signal) : undefined;
    if (kind !== undefined) {
      if (![...kind].some((k) => kinds.has(k))) continue;
      out.push(signalCandidate(scored, signal));
      continue;
    }
    if (!profile.intents.has(signal.family)) {
      // Trigger: a signal read off the chunk for another question (an "Errors and fixes" bullet
      // asked by the decisions query). Why: a line may answer more than one question — a fix
      // that names a design choice is a decision too. Outcome: it is judged by its own words
      // against this question, as a prose sentence is, without the signal's bonus, and only when
      // its own words carry a strong cue this question asks for ("the root cause was", "we
      // decided", "still unknown"). A weak one is not enough: a decision's "because" gives its
      // reason, not a bug, and every signal would ride into every note an update opens.
      if (answersAlso(profile, signal.text))
        out.push({
          ...scored,
          text: signal.text,
          ...(signal.rides === true ? { rides: true } : {}),
        });
      continue;
    }
    out.push(signalCandidate(scored, signal));
  }
  const errorSeen = records.some(
    (r) => !PROSE.has(r.role) && /\b(?:error|failed|exception|traceback)\b/i.test(r.text),
  );
  const discount = chunkDiscounts(
    profile,
    prose.map((p) => p.text),
  );
  for (const { pieces, spoken, agent, proposal, text: whole } of prose) {
    const speaker = chat.size > 0 ? speakerOf(whole) : undefined;
    const others = new Set([...chat].filter((name) => name !== speaker));
    for (const piece of pieces) {
      // A sentence that states a precedent, not the choices beside it (not-findings.ts).
      const text =
        agent && kinds.has('decision')
          ? withoutPrecedent(withoutChatter(piece), (s) => routeLine(s) === 'decision')
          : withoutChatter(piece);
      if (text === '' || isChatter(text) || isVenting(text)) continue;
      // Trigger: a question someone asked in the conversation. Why: whether it is open depends
      // on the turn (did the agent answer it, did the user reply), which openQuestionSignals
      // reads; as prose it entered the open note however it was answered ("… a bad name for
      // this no? alternatives?" with the agent's alternatives right after) and past the filters
      // for the agent's own proposals ("Run `npm run check` to verify…?"). Outcome: a question
      // in speech is a line only as that reader's "Open:" line, where the standing question asks
      // for kinds of finding; a factual question (LoCoMo's "When did Caroline go to the support
      // group?") reads every line, and a question said in the conversation may carry the fact
      // ("Did you see the photos from my trip to Paris?").
      if (asksInSpeech(spoken, text) || notAsked(text)) continue;
      // The agent's plan, step by step, is what it means to do (not-findings.ts).
      if (kinds.size > 0 && agent && (plansStep(text) || pointsAway(text))) continue;
      if (proposal(text) && routeLine(text) === 'decision') continue;
      if (kinds.size > 0 && !kinds.has(routeLine(text))) continue;
      // Trigger: a factual question asked of a chat whose turns carry their speaker's name
      // ("Melanie: …", chatSpeakers). Why: the name of the person asked about counted where
      // another speaker only addressed them ("Melanie: Wow, Caroline, sounds like the parade was
      // awesome!" matched a question about Caroline's events), and not in the later sentences of
      // their own long turn, which say what they did ("I ran into a group of religious
      // conservatives …"). Outcome: a sentence is judged as said by its turn's speaker, without
      // the names it only addresses.
      const judged =
        speaker === undefined ? text : withSpeaker(withoutAddress(text, others), speaker);
      const terms = scoreSentence(profile, judged, discount, given, chat.size > 0);
      // In a chat, a turn is also judged by how near its words are to the question (chat-meaning.ts).
      const scored =
        speaker === undefined
          ? terms
          : { ...terms, score: withMeaning(profile, judged, terms.score) };
      // Trigger: an item of a report that says its work is done and goes on to say what went
      // wrong or what was chosen ("Backfill: done, but 312 rows failed with a unique-constraint
      // violation on email"). Why: the report singled it out, as a "Fixes" or "Decisions"
      // heading would; as prose its only cue was a weak "failed" and it reached no note.
      // Outcome: it is weighed as a signal of the kind its remainder's words route to.
      const remainder = kinds.size > 0 && (agent || !spoken) ? statusRemainder(text) : undefined;
      if (remainder !== undefined && kinds.has(routeLine(remainder))) {
        const kind = routeLine(remainder);
        out.push(
          signalCandidate(scored, {
            text,
            family: kind === 'decision' ? 'decision' : kind === 'open' ? 'open' : 'cause',
          }),
        );
        continue;
      }
      // An error in the tool output with a cause or fix stated in prose is the classic
      // "error with its resolution" evidence: weigh the resolution up.
      const resolves = errorSeen && scored.cues.includes('cause') && profile.intents.has('cause');
      out.push({
        ...scored,
        score: resolves ? Math.round((scored.score + 0.1) * 1e6) / 1e6 : scored.score,
        text,
      });
    }
  }
  return out
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.score - a.c.score || a.i - b.i)
    .map(({ c }) => c);
}

/** A signal of the question's own kind: evidence by construction, scored above any prose. */
function signalCandidate(scored: SentenceScore, signal: Signal): Candidate {
  return {
    ...scored,
    score:
      Math.round(
        (SIGNAL_SCORE * (signal.inferred === true ? INFERRED : 1) + scored.relevance) * 1e6,
      ) / 1e6,
    cues: [...new Set([signal.family, ...scored.cues])],
    text: signal.text,
    ...(signal.rides === true ? { rides: true } : {}),
  };
}

/**
 * The kinds of finding a signal is: the family its structure names (a summary's "Errors and
 * fixes" item is a bug whatever its words), unless that family was guessed from the speech act,
 * when its words decide. A bug's words say whether it is a tool failure (a run that failed,
 * an error quoted from its output) or another bug; one whose words leave it unsettled ("the
 * root cause is still unknown") is an open question as well. A standing rule is no kind the
 * router assigns.
 */
function signalKinds(signal: Signal): ReadonlySet<LineKind> | undefined {
  if (signal.byWords === true) return new Set([routeLine(signal.text)]);
  if (signal.family === 'rule') return undefined;
  if (signal.family === 'decision') return new Set([signal.family]);
  // Trigger: an open line led by the error of a run left failing ('Unresolved: `npm run build`
  // failed with "TypeError: generate is not a function"; …'). Why: the tool-failures question
  // asks which runs failed and with what error; that nobody found the working form is part of
  // the answer, not a reason to keep it out. Outcome: open and a tool failure. Only a run the
  // heuristic saw fail (leftFailing), not the words: a question about exit codes ("Should `mem
  // import` exit with code 2 when a row is invalid?") designs behaviour, it quotes no failure.
  if (signal.family === 'open') return new Set(signal.leftFailing ? ['open', 'tool'] : ['open']);
  const kind = isToolFailure(signal.text) ? 'tool' : 'cause';
  return new Set(isUnsettled(signal.text) ? [kind, 'open'] : [kind]);
}

/** Whether a line's own words carry a strong cue of a family the question asks for. */
function answersAlso(profile: QuestionProfile, text: string): boolean {
  return analyzeUnit(text).cues.some(
    (cue) => cue.strength === 'strong' && profile.intents.has(cue.family),
  );
}

function describe(best: SentenceScore): string {
  const parts: string[] = [];
  if (best.matched.length > 0) parts.push(`matches ${best.matched.slice(0, 6).join(', ')}`);
  if (best.cues.length > 0) parts.push(`cues ${best.cues.join(', ')}`);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}
