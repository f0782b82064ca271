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
  ['many -p flags on one mysql line', `mysql ${"-p'x ".repeat(60_000)}`],
  ['many mysql words, then one flag', `${'mysql '.repeat(40_000)}-phunter22x`],
  ['many curl -u without a colon', `curl ${'-u aaaaaaaa '.repeat(25_000)}`],
  ['--password with long blanks', `--password${' '.repeat(100)}`.repeat(2500)],
  ['a long dashed flag', `--${'a-'.repeat(120_000)}password x`],
  ['mem_ ids repeated', 'mem_0123456789abcdef_'.repeat(12_000)],
  ['hf_ repeated', 'hf_'.repeat(80_000)],
  ['ghp_ glued by dashes', `-ghp_${'a'.repeat(40)}`.repeat(5000)],
  ['github_pat_ glued by underscores', `_github_pat_${'a'.repeat(20)}`.repeat(6000)],
  ['aws key keyword before long blanks', `aws_secret_access_key${' '.repeat(15)}= `.repeat(6000)],
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
