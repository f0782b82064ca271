import { redacted } from './placeholder.js';

/** A replacement and the kind it counts under. */
export interface Replacement {
  text: string;
  kind: string;
}

/** One kind of secret: how to find it and what to put in its place (`null` keeps the match). */
export interface SecretPattern {
  kind: string;
  regex: RegExp;
  /** A cheap test that must pass before `regex` runs: most text holds no trigger at all. */
  trigger: RegExp;
  replace?: (
    match: string,
    groups: Array<string | undefined>,
    offset: number,
    whole: string,
  ) => Replacement | null;
  /** Widens each match to the span it stands for (a key block reaches over its lines); made once per text. */
  spans?: (whole: string) => (start: number, end: number) => [number, number];
  /** Whether a match at `offset` counts at all (it sits on the right command line); made once per text. */
  context?: (whole: string) => (offset: number) => boolean;
}

/**
 * Compiles a token pattern to start only where no token character precedes it, or right after a
 * JSON escape (`\n`, `\t`, `\r`: tool inputs are rendered as compact JSON, where `\nsk-…` has
 * no boundary before `sk`). Starting only at the head of a run keeps every scan linear: a run
 * like `-eyJ-eyJ-…` is tried once, not once per `eyJ`.
 */
export function bounded(source: string, flags = 'g'): RegExp {
  return new RegExp(String.raw`(?:(?<![A-Za-z0-9_-])|(?<=\\[nrt]))` + source, flags);
}

/**
 * Like `bounded`, for tokens whose body is letters and digits only (or of fixed length): a `-` or
 * `_` may precede them (`retry-ghp_…`, `id_hf_…`), since a match can never run on across one,
 * so each attempt stays short and the scan linear.
 */
export function afterWordBreak(source: string, flags = 'g'): RegExp {
  return new RegExp(String.raw`(?:(?<![A-Za-z0-9])|(?<=\\[nrt]))` + source, flags);
}

/** A regex matching `word` in any letter case, without the `i` flag (which is slower to scan). */
export function caseless(word: string): RegExp {
  return new RegExp(
    [...word].map((c) => (/[a-z]/u.test(c) ? `[${c.toUpperCase()}${c}]` : c)).join(''),
  );
}

/** The replacement of a secret of `kind`, with what stays of the match before and after it. */
export function tagged(kind: string, before = '', after = ''): Replacement {
  return { kind, text: `${before}${redacted(kind)}${after}` };
}

/**
 * True when the value a match ends with runs on into a placeholder (`mem_<id>_[REDACTED:mem_token]`):
 * an earlier pattern already replaced the secret, and what precedes the placeholder is kept on purpose.
 */
export function runsIntoPlaceholder(whole: string, end: number): boolean {
  return whole.startsWith('[REDACTED:', end);
}
