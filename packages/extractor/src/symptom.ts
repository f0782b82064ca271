/**
 * The symptom text of a memory: the failure signs its lines mention, as they would appear in
 * a log or an error message, joined one per line. Deterministic (it is a pure function of the
 * memory text), so the heuristic and the model controllers write the same symptom for the same
 * memory. Null when the memory explains no failure.
 */
export function symptomOf(memory: string): string | null {
  const found: string[] = [];
  const seen = new Set<string>();
  for (const line of memory.split('\n')) {
    const text = line.replace(/^\s*-\s+/, '').replace(/^\[[^\]]+\]\s*/, '');
    if (!FAILURE.test(text)) continue;
    for (const sign of signsIn(text)) {
      const key = sign.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(sign);
    }
  }
  return found.length > 0 ? found.slice(0, 12).join('\n') : null;
}

const FAILURE =
  /\b(?:error|errors|exception|failed|failing|failure|fails|crash(?:ed|es)?|panic|timed? out|timeout|refused|denied|not found|cannot|can't|broken|flak\w*|race|leak\w*|\d{3} [A-Z][a-z]+|E[A-Z]{3,})\b/;

const SIGNS: RegExp[] = [
  /\b[A-Z][A-Za-z]*(?:Error|Exception)\b(?::[^.;\n]{0,80})?/g, // TypeError: x is undefined
  /\b(?:E[A-Z]{3,}|ERR_[A-Z_]+)\b(?:[^.;\n]{0,60})?/g, // ENOENT, ERESOLVE unable to resolve…, ERR_MODULE_NOT_FOUND
  /\b[1-5]\d{2} (?:[A-Z][a-z]+)(?: [A-Z][a-z]+){0,3}\b/g, // 413 Request Entity Too Large
  /\b(?:error|failed|failure|cannot|can't|unable to|timed out|timeout|refused|denied|not found|panic)\b[^.;\n]{0,80}/gi,
];

function signsIn(text: string): string[] {
  const out: string[] = [];
  for (const pattern of SIGNS) {
    for (const match of text.matchAll(pattern)) out.push(match[0].trim().replace(/[,:]$/, ''));
  }
  return out.length > 0 ? out : [text.slice(0, 160)];
}
