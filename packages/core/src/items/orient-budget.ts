import { z } from 'zod';

/**
 * The sections of an orientation (seed 000 §5.1), in payload order. Rules and facts are
 * capped at write (a write that would overflow is refused); the rest truncate at read.
 */
export const ORIENT_SECTIONS = [
  'rules',
  'facts',
  'threads',
  'reminders',
  'projects',
  'tags',
  'review',
] as const;
export type OrientSection = (typeof ORIENT_SECTIONS)[number];
export type OrientBudget = Record<OrientSection, number>;

/**
 * UTF-8 bytes per section. Rules and facts are per project (a write knows only its own
 * project, so that is the unit it can enforce); 12 KiB of always-loaded knowledge is the
 * seed's ceiling; the whole default payload stays within 22 KiB. `review` (stop 33) bounds
 * the pointers to each read project's open review findings (~150 bytes a project).
 */
export const DEFAULT_ORIENT_BUDGET: OrientBudget = {
  rules: 4096,
  facts: 8192,
  threads: 4096,
  reminders: 2048,
  projects: 1024,
  tags: 2048,
  review: 1024,
};

/** The documented form of the default, for the README's configuration table. */
export const DEFAULT_ORIENT_BUDGET_TEXT = ORIENT_SECTIONS.map(
  (s) => `${s}=${DEFAULT_ORIENT_BUDGET[s]}`,
).join(',');

const MIN_SECTION = 256;
const MAX_SECTION = 1_048_576;

/** `rules=4096,facts=8192`: the syntax of MEM_ORIENT_BUDGET; a section left out keeps its default. */
export const orientBudgetSchema = z.string().transform((value, ctx): OrientBudget => {
  const out: OrientBudget = { ...DEFAULT_ORIENT_BUDGET };
  const seen = new Set<string>();
  for (const part of value.split(',')) {
    const [section, bytes, ...rest] = part.split('=').map((s) => s.trim());
    if (
      !(ORIENT_SECTIONS as readonly string[]).includes(section ?? '') ||
      bytes === undefined ||
      rest.length > 0
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `expected section=bytes pairs, the sections ${ORIENT_SECTIONS.join(', ')}; got ${JSON.stringify(part.trim())}`,
      });
      return z.NEVER;
    }
    if (seen.has(section!)) {
      ctx.addIssue({ code: 'custom', message: `${section} is given twice` });
      return z.NEVER;
    }
    seen.add(section!);
    const n = /^\d+$/.test(bytes) ? Number(bytes) : NaN;
    if (!(n >= MIN_SECTION && n <= MAX_SECTION)) {
      ctx.addIssue({
        code: 'custom',
        message: `${section}: expected a whole number of bytes from ${MIN_SECTION} to ${MAX_SECTION}, got ${JSON.stringify(bytes)}`,
      });
      return z.NEVER;
    }
    out[section as OrientSection] = n;
  }
  return out;
});
