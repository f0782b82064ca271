import { sha256Hex } from '../identity.js';

/** One failure signature taken from a symptom line. */
export interface FailureSignature {
  /** sha256 of `signature`: the exact-match key of tier 1. */
  sigSha: string;
  /** The normalised line. */
  signature: string;
  /** The tool the line names, or 'unknown'. */
  tool: string;
  /** The line as written (trimmed). */
  raw: string;
}

/*
 * What varies between two occurrences of the same failure, replaced by a placeholder, in this
 * order (earlier rules eat text later ones would misread: a timestamp holds a time, a URL a
 * path, a path a sha). What stays: words, error codes (TS2322, E0308, ERESOLVE), HTTP statuses,
 * exit codes and other short numbers — they are what tells two failures apart.
 */
const RULES: readonly [RegExp, string][] = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '<ts>'],
  [/\b\d{4}[-/]\d{2}[-/]\d{2}\b/g, '<date>'],
  [/\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* +\d{1,2}\b/g, '<date>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b(https?|wss?):\/\/([^\s/'"<>]+)[^\s'"<>]*/g, '$1://$2/<path>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, '<ip>'],
  // Absolute, home, relative and Windows paths: the directories go, the file name stays.
  // Not a '/' inside a word (src/index.ts is already workspace-relative) or a URL.
  [
    /(?<![\w.~<>:/\\-])(?:[A-Za-z]:\\|~\/|\.{1,2}\/|\/)(?:[^\s'"`()<>:,;\\/]+[\\/])*([^\s'"`()<>:,;\\/]*)/g,
    '<path>/$1',
  ],
  // A relative path to a file (src/core/x.ts, ../tui/test/x.ts after the rule above): which
  // directory it was named from varies with the cwd, the file name does not. A package name
  // (@scope/pkg, no extension) is not a path and stays.
  [/(?<![\w.~<>:/\\@-])(?:[\w.@-]+\/)+([\w-][\w.-]*\.[A-Za-z0-9]{1,6})\b/g, '<path>/$1'],
  [/\b0x[0-9a-f]+\b/gi, '<addr>'],
  [/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,64}\b/gi, '<sha>'],
  // Line and column: file.ts:12:5, file.ts(12,5), "line 12", "col 5".
  [/(\.[A-Za-z0-9]+|<path>\/[^\s:]*):\d+(?::\d+)?/g, '$1:<n>'],
  [/\((\d+),(\d+)\)/g, '(<n>,<n>)'],
  [/\b(line|ln|col|column|position|offset) \d+/gi, '$1 <n>'],
  [
    /\b\d+(?:\.\d+)?(?:ms|µs|us|ns|s|sec|secs|seconds?|m|min|mins|minutes?|h|hrs?|hours?)\b/g,
    '<dur>',
  ],
  [/\b(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?s\b/g, '<dur>'],
  // Numbers inside identifiers (worker-12, pod-7f9c8d-x2b4, run_42, #1234), not codes like TS2322.
  [/([A-Za-z][A-Za-z0-9]*[-_.#])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]+/g, '$1<id>'],
  [/(<id>[-_.#])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]+/g, '$1<id>'],
  [/#\d+\b/g, '#<n>'],
  [/\b\d{5,}\b/g, '<n>'],
];

const KNOWN_TOOLS = new Set([
  'apt',
  'apt-get',
  'argocd',
  'ansible',
  'aws',
  'az',
  'bash',
  'brew',
  'cargo',
  'claude',
  'curl',
  'docker',
  'eslint',
  'flux',
  'gcloud',
  'gh',
  'git',
  'go',
  'helm',
  'jest',
  'journalctl',
  'kubectl',
  'kustomize',
  'make',
  'mem',
  'node',
  'npm',
  'npx',
  'pg_dump',
  'pi',
  'pip',
  'pnpm',
  'podman',
  'prettier',
  'psql',
  'python',
  'python3',
  'rustc',
  'ssh',
  'systemctl',
  'terraform',
  'tsc',
  'vitest',
  'yarn',
]);

/** Phrases that name the tool by its own wording. */
const TOOL_PHRASES: readonly [RegExp, string][] = [
  [/^(?:ba|z)?sh: ([\w.-]+): command not found/, '$1'],
  [/\berror TS\d+\b/, 'tsc'],
  [/\berror\[E\d{4}\]/, 'rustc'],
  [/^Error from server \(/, 'kubectl'],
  [/^Traceback \(most recent call last\)/, 'python'],
];

/*
 * Why a cap: some rules (the identifier one above all) backtrack over a long run of word
 * characters, quadratic in the line's length. An error's identity sits in its first few hundred
 * characters, so each line is cut there first: the cost per line is then bounded, and a text's
 * cost linear in its number of lines.
 */
/** The longest prefix of a line that normalisation reads. */
export const SIGNATURE_LINE_CAP = 320;

/** Normalises one line: placeholders for what varies between occurrences, whitespace collapsed. */
export function normalizeSignature(line: string): string {
  let out = line.slice(0, SIGNATURE_LINE_CAP).normalize('NFC');
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out.replace(/\s+/g, ' ').trim();
}

/** The tool a normalised line names: a known tool leading the line (after a prompt), a known phrase, or 'unknown'. */
export function toolOf(signature: string): string {
  for (const [pattern, replacement] of TOOL_PHRASES) {
    const match = pattern.exec(signature);
    if (match) return match[0].replace(pattern, replacement).toLowerCase();
  }
  const first = /^(?:[$>#] )?([A-Za-z][\w.-]*?)(?:[:!]| ERR!|\s|$)/
    .exec(signature)?.[1]
    ?.toLowerCase();
  return first !== undefined && KNOWN_TOOLS.has(first) ? first : 'unknown';
}

/**
 * The signatures of some lines: one per distinct normalised line that still has at least
 * three letters (a line of placeholders and punctuation identifies nothing), in first-seen order.
 * `tool` names the tool when the caller knows it (a tool result's header); otherwise the line's.
 */
export function lineSignatures(lines: readonly string[], tool?: string): FailureSignature[] {
  const out = new Map<string, FailureSignature>();
  for (const line of lines) {
    const raw = line.trim().slice(0, SIGNATURE_LINE_CAP);
    const signature = normalizeSignature(raw);
    if ((signature.replace(/<[a-z]+>/g, '').match(/\p{L}/gu)?.length ?? 0) < 3) continue;
    const sigSha = sha256Hex(signature);
    if (!out.has(sigSha))
      out.set(sigSha, { sigSha, signature, tool: tool ?? toolOf(signature), raw });
  }
  return [...out.values()];
}
