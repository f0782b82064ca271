import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scrubSecrets } from './scrub.js';

const chars = (alphabet: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64URL = `${ALNUM}_-`;
const B64 = `${ALNUM}+/`;

/** A value that looks like a real secret: letters and digits, mixed case, never a placeholder word. */
const secretValue = fc
  .tuple(chars('abcdefghijklmnopqrstuvwxyz', 3, 6), chars('0123456789', 2, 4), chars(ALNUM, 3, 16))
  .map(([a, b, c]) => `${a}${b}${c}`);

/** A planted secret: the snippet as it appears in text, and the part that must never survive. */
interface Planted {
  snippet: string;
  secret: string;
}
const plant = (
  arb: fc.Arbitrary<string>,
  wrap: (s: string) => string = (s) => s,
): fc.Arbitrary<Planted> => arb.map((secret) => ({ secret, snippet: wrap(secret) }));

const PLANTED: Record<string, fc.Arbitrary<Planted>> = {
  openai_key: plant(
    fc
      .tuple(chars(ALNUM, 30, 60), fc.integer({ min: 0, max: 9 }))
      .map(([s, d]) => `sk-proj-${d}${s}`),
  ),
  anthropic_key: plant(chars(B64URL, 40, 95).map((s) => `sk-ant-api03-${s}`)),
  github_token: plant(chars(ALNUM, 36, 40).map((s) => `ghp_${s}`)),
  aws_access_key: plant(chars(UPPER_DIGITS, 16, 16).map((s) => `AKIA${s}`)),
  aws_secret_key: plant(chars(B64, 40, 40), (s) => `AWS_SECRET_ACCESS_KEY=${s}`),
  slack_token: plant(chars(`${ALNUM}-`, 10, 40).map((s) => `xoxb-${s}`)),
  google_api_key: plant(chars(B64URL, 35, 35).map((s) => `AIza${s}`)),
  stripe_key: plant(chars(ALNUM, 24, 32).map((s) => `sk_live_${s}`)),
  bearer_token: plant(
    chars(`${ALNUM}._-`, 20, 60).filter((s) => /[a-z]/u.test(s) && !s.includes('..')),
    (s) => `Authorization: Bearer ${s}`,
  ),
  jwt: plant(
    fc
      .tuple(chars(B64URL, 10, 40), chars(B64URL, 10, 80), chars(B64URL, 10, 43))
      .map(([a, b, c]) => `eyJ${a}.eyJ${b}.${c}`),
  ),
  private_key: plant(
    fc.array(chars(B64, 64, 64), { minLength: 1, maxLength: 6 }).map((lines) => lines.join('\n')),
    (body) => `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`,
  ),
  connection_string: fc
    .tuple(
      fc.constantFrom('postgres', 'postgresql', 'mysql', 'mongodb+srv', 'redis', 'amqp'),
      secretValue,
    )
    .map(([scheme, secret]) => ({
      secret,
      snippet: `${scheme}://app:${secret}@db.internal:5432/main`,
    })),
  password_env: plant(secretValue, (s) => `DB_PASSWORD=${s}`),
  password_json: plant(secretValue, (s) => `{"password": "${s}"}`),
  password_yaml: plant(secretValue, (s) => `password: ${s}\n`),
  secret_py: plant(secretValue, (s) => `client_secret = "${s}"`),
  api_key_query: plant(secretValue, (s) => `https://api.example.com/v1?api_key=${s}&q=1`),
  token_flag: plant(secretValue, (s) => `--token=${s}`),
  aws_secret_key_spaced: plant(chars(B64, 40, 40), (s) => `aws_secret_access_key = ${s}`),
  mem_token: plant(chars(B64URL, 43, 43), (s) => `mem_${'0123456789abcdef'}_${s}`),
  huggingface_token: plant(chars(ALNUM, 34, 34).map((s) => `hf_${s}`)),
  password_flag: fc
    .tuple(
      fc.constantFrom('--password', '--db-password', '--passwd', '--token'),
      fc.constantFrom(' ', '  ', '='),
      secretValue,
    )
    .map(([flag, separator, secret]) => ({
      secret,
      snippet: `tool ${flag}${separator}${secret} --verbose`,
    })),
  mysql_p: fc
    .tuple(
      fc.constantFrom('mysql', 'mysqldump', 'mariadb', '/usr/bin/mysql'),
      fc.constantFrom('', "'", '"'),
      secretValue,
    )
    .map(([program, quote, secret]) => ({
      secret,
      snippet: `${program} -h db -u root -p${quote}${secret}${quote} shop`,
    })),
  sshpass_p: plant(secretValue, (s) => `sshpass -p ${s} ssh deploy@host`),
  curl_user: fc
    .tuple(
      fc.constantFrom('-u ', '-u', '--user ', '--user='),
      chars('abcdefghijklmnopqrstuvwxyz', 1, 12),
      secretValue,
    )
    .map(([flag, user, secret]) => ({
      secret,
      snippet: `curl -s ${flag}${user}:${secret} https://api.internal/v1`,
    })),
};

const anyPlanted = fc.oneof(...Object.values(PLANTED));
/** Arbitrary surrounding text, kept apart from the secret by whitespace as real text would be. */
const around = fc.tuple(
  fc.string({ maxLength: 80 }),
  fc.constantFrom(' ', '\n', '\t'),
  fc.constantFrom(' ', '\n', '\t'),
  fc.string({ maxLength: 80 }),
);

describe('scrubSecrets: planted secrets never survive', () => {
  it('in arbitrary surrounding text', () => {
    fc.assert(
      fc.property(anyPlanted, around, ({ snippet, secret }, [before, s1, s2, after]) => {
        const { text } = scrubSecrets(`${before}${s1}${snippet}${s2}${after}`);
        expect(text).not.toContain(secret);
      }),
      { numRuns: 2000 },
    );
  });

  it('inside JSON-escaped text (tool inputs are rendered as compact JSON)', () => {
    fc.assert(
      fc.property(anyPlanted, around, ({ snippet, secret }, [before, s1, s2, after]) => {
        const { text } = scrubSecrets(
          JSON.stringify({ command: `${before}${s1}${snippet}${s2}${after}` }),
        );
        expect(text).not.toContain(secret);
      }),
      { numRuns: 2000 },
    );
  });

  it('several at once, each counted', () => {
    fc.assert(
      fc.property(fc.array(anyPlanted, { minLength: 1, maxLength: 6 }), (planted) => {
        const { text, counts } = scrubSecrets(planted.map((p) => p.snippet).join('\n \n'));
        for (const p of planted) expect(text).not.toContain(p.secret);
        const total = Object.values(counts).reduce((a, b) => a + b, 0);
        expect(total).toBeGreaterThanOrEqual(planted.length);
      }),
      { numRuns: 500 },
    );
  });

  it('is idempotent on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), anyPlanted, (text, { snippet }) => {
        const once = scrubSecrets(`${text} ${snippet}`).text;
        expect(scrubSecrets(once).text).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });
});
