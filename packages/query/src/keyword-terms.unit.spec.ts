import { ftsPhrase } from '@mem/projector-sqlite';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_KEYWORD_TERMS, keywordTerms, matchExpression } from './keyword-terms.js';

describe('keywordTerms', () => {
  it('splits on everything but letters and digits, lowercases, dedupes, and drops function words', () => {
    expect(keywordTerms('Why did hermes-google fail on 2026-08-05? Kong, KONG!')).toEqual({
      terms: ['hermes', 'google', 'fail', '2026', '08', '05', 'kong'],
      stopwords: ['why', 'did', 'on'],
      overflow: 0,
    });
  });

  it('turns query syntax into plain words: quotes, NEAR, *, column filters, ^, parentheses', () => {
    expect(
      keywordTerms('"kong NEAR(buffer body) text:proxy* ^start -size AND NOT x OR y').terms,
    ).toEqual(['kong', 'near', 'buffer', 'body', 'text', 'proxy', 'start', 'size', 'x']);
  });

  it('keeps a command-line flag even when it is a function word', () => {
    expect(keywordTerms('kubectl get pods --all, -a, well-being and all').terms).toEqual([
      'kubectl',
      'get',
      'pods',
      'all',
      'a',
      'well',
    ]);
    expect(keywordTerms('all pods --all').terms).toEqual(['pods', 'all']);
  });

  it('keeps letters and digits of any script', () => {
    expect(keywordTerms('Déjà vu — Straße 你好 №5').terms).toEqual([
      'déjà',
      'vu',
      'straße',
      '你好',
      '5',
    ]);
  });

  it('keeps at most MAX_KEYWORD_TERMS distinct terms and counts the rest', () => {
    const words = Array.from({ length: MAX_KEYWORD_TERMS + 5 }, (_, i) => `w${i}`);
    const result = keywordTerms(words.join(' '));
    expect(result.terms).toEqual(words.slice(0, MAX_KEYWORD_TERMS));
    expect(result.overflow).toBe(5);
  });

  it('keeps function words when asked (the baseline does)', () => {
    expect(keywordTerms('what is the kong', { keepStopwords: true }).terms).toEqual([
      'what',
      'is',
      'the',
      'kong',
    ]);
  });
});

describe('matchExpression', () => {
  it('quotes each term and joins them', () => {
    expect(matchExpression(['kong', 'near'], 'OR')).toBe('"kong" OR "near"');
    expect(matchExpression(['a"b'], 'AND')).toBe('"a""b"');
    expect(matchExpression([], 'OR')).toBeNull();
  });

  it('property: any text becomes only quoted terms joined by OR — user syntax is unreachable', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const { terms } = keywordTerms(text);
        const expression = matchExpression(terms, 'OR');
        if (terms.length === 0) return expression === null;
        const phrases = terms.map((term) => {
          if (!/^[\p{L}\p{N}\p{Co}]+$/u.test(term)) return null;
          // A CJK term: the quoted phrase of its bigrams (words only), a prefix only as fts-text.ts makes it.
          if (ftsPhrase(term) !== `"${term}"`)
            return /^"[\p{L}\p{N}\p{Co}]+( [\p{L}\p{N}\p{Co}]+)*"\*?$/u.test(ftsPhrase(term))
              ? ftsPhrase(term)
              : null;
          return `"${term}"`;
        });
        if (phrases.includes(null)) return false;
        return expression === phrases.join(' OR ');
      }),
      { numRuns: 2000 },
    );
  });
});
