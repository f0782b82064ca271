import { readFileSync } from 'node:fs';
import { MemError, unreadableFileCode } from '@mem/core';

/** One dialogue turn of a LoCoMo conversation. */
export interface LocomoTurn {
  diaId: string;
  speaker: string;
  text: string;
}

export interface LocomoSession {
  /** 1-based session number (the `n` of `session_<n>`). */
  number: number;
  dateTime: string | null;
  turns: LocomoTurn[];
}

export interface LocomoQuestion {
  question: string;
  /** The gold answer as a string (a few are numbers upstream). */
  answer: string | null;
  /** Evidence dia_ids, cleaned (see `cleanEvidence`); only ids that exist in the conversation. */
  evidence: string[];
  category: number;
}

export interface LocomoConversation {
  sampleId: string;
  speakers: [string, string];
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
}

/**
 * Loads LoCoMo-10 (snap-research/locomo, CC BY-NC 4.0; see shared/data/locomo/README.md).
 * Sessions are found by their `session_<n>` keys (conv-26 has orphan `_date_time` keys), and
 * evidence ids are cleaned as the README describes.
 */
export function loadLocomo(path: string): LocomoConversation[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    // A file that is not there is NOT_FOUND (exit 1), as every file argument of the CLI; one
    // that is there and is no LoCoMo JSON is the input refused (INVALID_INPUT, exit 2).
    const code = (error as NodeJS.ErrnoException).code;
    throw new MemError(
      unreadableFileCode(error),
      code === 'EISDIR'
        ? `${path}: a directory, expected the LoCoMo JSON file`
        : `${path}: cannot read LoCoMo JSON (${code ?? (error as Error).message})`,
      { file: path },
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new MemError('INVALID_INPUT', `${path}: not LoCoMo JSON (${(error as Error).message})`, {
      file: path,
    });
  }
  if (!Array.isArray(raw))
    throw new MemError('INVALID_INPUT', `${path}: expected a JSON array of conversations`, {
      file: path,
    });
  return raw.map((entry, i) =>
    parseConversation(entry as Record<string, unknown>, `${path}[${i}]`),
  );
}

function parseConversation(entry: Record<string, unknown>, where: string): LocomoConversation {
  const conversation = entry['conversation'] as Record<string, unknown> | undefined;
  const sampleId = entry['sample_id'];
  if (typeof sampleId !== 'string' || !conversation)
    throw new MemError('INVALID_INPUT', `${where}: expected {sample_id, conversation, qa}`, {
      where,
    });
  const sessions: LocomoSession[] = [];
  for (const key of Object.keys(conversation)) {
    const match = /^session_(\d+)$/.exec(key);
    if (!match) continue;
    const number = Number(match[1]);
    const turns = (conversation[key] as Record<string, unknown>[]).map((turn) => ({
      diaId: String(turn['dia_id']),
      speaker: String(turn['speaker']),
      text: turnText(turn),
    }));
    const dateTime = conversation[`session_${number}_date_time`];
    sessions.push({ number, dateTime: typeof dateTime === 'string' ? dateTime : null, turns });
  }
  sessions.sort((a, b) => a.number - b.number);
  const known = new Set(sessions.flatMap((s) => s.turns.map((t) => t.diaId)));
  const questions = ((entry['qa'] as Record<string, unknown>[]) ?? []).map((qa) => ({
    question: String(qa['question']),
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- LoCoMo answers are strings or numbers
    answer: qa['answer'] === undefined || qa['answer'] === null ? null : String(qa['answer']),
    evidence: cleanEvidence((qa['evidence'] as unknown[]) ?? []).filter((id) => known.has(id)),
    category: Number(qa['category']),
  }));
  return {
    sampleId,
    speakers: [String(conversation['speaker_a']), String(conversation['speaker_b'])],
    sessions,
    questions,
  };
}

/** A turn's words, with the caption of a shared image when there is one. */
function turnText(turn: Record<string, unknown>): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a LoCoMo turn's text is a string
  const text = String(turn['text'] ?? '');
  const caption = turn['blip_caption'];
  return typeof caption === 'string' && caption !== ''
    ? `${text} [shares an image: ${caption}]`
    : text;
}

/** Splits joined ids ("D8:6; D9:17", "D9:1 D4:4"), strips zero padding ("D30:05"), drops malformed ones. */
export function cleanEvidence(ids: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const id of ids) {
    for (const piece of String(id).split(/[;\s]+/)) {
      const match = /^D(\d+):(\d+)$/.exec(piece.trim());
      if (match) out.push(`D${Number(match[1])}:${Number(match[2])}`);
    }
  }
  return [...new Set(out)];
}

/** Normalises an answer or a memory for containment checks: lowercase, letters and digits, single spaces. */
export function normalizeAnswer(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
