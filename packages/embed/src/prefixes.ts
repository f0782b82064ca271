import type { EmbedRole } from './embedder.js';

/** The text put before a query and before a document (empty: none). */
export type EmbedPrefixes = Record<EmbedRole, string>;

export const NO_PREFIXES: EmbedPrefixes = { query: '', document: '' };

/*
 * The prefixes model families were trained with: without them their retrieval quality drops
 * (nomic-embed-text's model card; e5's "query: " / "passage: "). Matched on the model name as
 * servers spell it (Ollama `nomic-embed-text`, HF `nomic-ai/nomic-embed-text-v1.5`,
 * `intfloat/multilingual-e5-large`).
 */
const KNOWN: readonly { pattern: RegExp; prefixes: EmbedPrefixes }[] = [
  {
    pattern: /nomic-embed-text/i,
    prefixes: { query: 'search_query: ', document: 'search_document: ' },
  },
  { pattern: /(^|[/_-])e5([_-]|$)/i, prefixes: { query: 'query: ', document: 'passage: ' } },
];

/** The known prefixes of `model`, else none. */
export function knownPrefixes(model: string): EmbedPrefixes {
  return { ...(KNOWN.find((k) => k.pattern.test(model))?.prefixes ?? NO_PREFIXES) };
}
