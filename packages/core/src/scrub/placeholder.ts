/** The text a secret of `kind` is replaced with. */
export function redacted(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/** Words that stand for a secret in docs and examples rather than being one. */
const PLACEHOLDER_WORDS = new Set([
  'changeme',
  'example',
  'false',
  'hidden',
  'none',
  'null',
  'pass',
  'passwd',
  'password',
  'placeholder',
  'redacted',
  'required',
  'secret',
  'string',
  'token',
  'true',
  'undefined',
]);

/**
 * True for assignment values that are obviously not secrets: references (`$DB_PASS`, `${X}`,
 * `{{x}}`, `<password>`, `%s`), masks (`****`, `xxxx`, `...`), ALL_CAPS names (`YOUR_API_KEY`),
 * numbers (token counts), and documentation words (`password=password`). Over-redacting these
 * would only blur prose; a real secret rarely looks like one.
 */
export function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  if (v.length < 4) return true;
  if (/^[$%<{[(]/u.test(v)) return true;
  if (v.includes('...') || v.includes('…')) return true;
  if (/^(.)\1*$/u.test(v)) return true;
  if (/^[*x•#_-]+$/iu.test(v)) return true;
  if (/^[A-Z][A-Z_]*$/u.test(v)) return true;
  if (/^[\d.,_]+$/u.test(v)) return true;
  if (/^(?:your|my|some|the)[-_ ]?(?:pass|secret|token|key|api|access|auth)/iu.test(v)) return true;
  if (/example|placeholder|changeme|dummy/iu.test(v)) return true;
  return PLACEHOLDER_WORDS.has(v.toLowerCase());
}
