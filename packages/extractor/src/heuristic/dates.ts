/*
 * Calendar dates a question names and a chunk bears. A date is not a word a sentence says: "What
 * did Joanna watch on February 7, 2022?" is answered by "I just watched Little Women", said in a
 * conversation dated that day. So a question's date is matched against the chunk as a whole (its
 * header or any date its text names), never against one sentence's words.
 */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

/** A month of a year, and the day when one is named. */
export interface CalendarDate {
  year: number;
  /** 1–12. */
  month: number;
  day?: number;
}

const MONTH = `(${MONTHS.join('|')}|sept|${MONTHS.map((m) => m.slice(0, 3)).join('|')})\\.?`;
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '((?:19|20)\\d\\d)';
/** "7 February 2022", "February 7, 2022", "February 2022", "Feb. 2022"; a year is required. */
const WRITTEN = new RegExp(
  `\\b(?:${DAY}(?:\\s+of)?\\s+)?${MONTH}(?:\\s+${DAY})?,?\\s+${YEAR}\\b`,
  'giu',
);
/** "2022-02-07": an ISO date or timestamp. */
const ISO = /\b((?:19|20)\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?!\d)/gu;

function monthOf(name: string): number {
  const lower = name.toLowerCase();
  return MONTHS.findIndex((m) => m.startsWith(lower.slice(0, 3))) + 1;
}

/** The dates a text names, in order: written out with a year, or ISO. */
export function datesIn(text: string): CalendarDate[] {
  const out: { at: number; date: CalendarDate }[] = [];
  for (const m of text.matchAll(WRITTEN)) {
    const day = Number(m[1] ?? m[3] ?? NaN);
    const date: CalendarDate = { year: Number(m[4]), month: monthOf(m[2]!) };
    if (day >= 1 && day <= 31) date.day = day;
    out.push({ at: m.index, date });
  }
  for (const m of text.matchAll(ISO))
    out.push({ at: m.index, date: { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) } });
  return out.sort((a, b) => a.at - b.at).map((d) => d.date);
}

/**
 * The text with its dates, written or ISO, blanked out: their words are no topic a sentence
 * states, and the date is counted once, as the date a chunk bears.
 */
export function withoutDates(text: string): string {
  return text.replace(WRITTEN, ' ').replace(ISO, ' ');
}

/**
 * Whether a chunk bearing `dates` falls on a date the question names: the same month of the same
 * year, and the same day when the question names one.
 */
export function bearsDate(asked: readonly CalendarDate[], dates: readonly CalendarDate[]): boolean {
  return asked.some((a) =>
    dates.some(
      (d) =>
        d.year === a.year &&
        d.month === a.month &&
        (a.day === undefined || d.day === undefined || d.day === a.day),
    ),
  );
}
