import { describe, expect, it } from 'vitest';
import { scrubSecrets } from './scrub.js';

/** Inputs built to make a backtracking pattern go quadratic; each must stay fast. */
const line = `${'A'.repeat(76)}\n`;
const HOSTILE: Array<[string, string]> = [
  ['base64 lines ending in an END line', `${line.repeat(3000)}-----END RSA PRIVATE KEY-----`],
  ['many END lines', `${line.repeat(3)}-----END RSA PRIVATE KEY-----\n`.repeat(1000)],
  ['many BEGIN lines, no END', '-----BEGIN PRIVATE KEY-----.'.repeat(8000)],
  ['one dash-joined run of eyJ', '-eyJ'.repeat(60_000)],
  ['sk- repeated', 'sk-'.repeat(80_000)],
  ['a long run after sk-', `sk-${'a'.repeat(250_000)}`],
  ['unclosed password quotes', 'password="'.repeat(25_000)],
  ['keywords before long blanks', `password${' '.repeat(100)}`.repeat(2500)],
  ['scheme without host', 'postgres://a:'.repeat(20_000)],
  ['Bearer repeated', 'Bearer '.repeat(40_000)],
];

describe('scrubSecrets stays linear on hostile text', () => {
  for (const [name, text] of HOSTILE) {
    it(name, () => {
      const started = performance.now();
      scrubSecrets(text);
      // Quadratic behaviour at this size takes minutes; linear takes milliseconds.
      expect(performance.now() - started).toBeLessThan(2000);
    });
  }
});
