import { describe, expect, it } from 'vitest';
import { scrubSecrets } from './scrub.js';

const OPENAI = 'sk-proj-4fQx9Lm2Zt8Rb7Wc1Yh3Nk5Pv6Dj0Gs2Ea7Ti9Uo4';
const ANTHROPIC = 'sk-ant-api03-Xy7q1Wm9Zk3Lp5Rt8Vn2Bc4Hd6Jf0Gs1Ea7Ti9Uo4Qz-AbCdEfAA';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

describe('scrubSecrets: each kind is replaced by its typed placeholder', () => {
  const cases: Array<[string, string, string]> = [
    ['openai_key', `key is ${OPENAI} ok`, 'key is [REDACTED:openai_key] ok'],
    ['openai_key (legacy)', 'sk-Zq81234567890abcdefghijklmnopqrstuvwxABCDEFGH', '[REDACTED:openai_key]'],
    ['anthropic_key', `export X=${ANTHROPIC}`, 'export X=[REDACTED:anthropic_key]'],
    ['github_token', 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB used', '[REDACTED:github_token] used'],
    ['github_token (fine-grained)', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', '[REDACTED:github_token]'],
    ['aws_access_key', 'id AKIAIOSFODNN7EXAMPLE here', 'id [REDACTED:aws_access_key] here'],
    ['aws_secret_key', 'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kL2mN4p', 'aws_secret_access_key=[REDACTED:aws_secret_key]'],
    ['slack_token', 'xoxb-123456789012-abcdefghijkl', '[REDACTED:slack_token]'],
    ['google_api_key', 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q', '[REDACTED:google_api_key]'],
    ['stripe_key', 'sk_live_51HxYzAbCdEfGhIjKlMnOpQr', '[REDACTED:stripe_key]'],
    ['bearer_token', 'Authorization: Bearer abcDEF123456ghiJKL789', 'Authorization: Bearer [REDACTED:bearer_token]'],
    ['basic_auth', 'Authorization: Basic dXNlcjpodW50ZXIy', 'Authorization: Basic [REDACTED:basic_auth]'],
    ['jwt', `token ${JWT}.`, 'token [REDACTED:jwt].'],
    ['connection_string', 'postgres://app:s3cr3tPass@db:5432/x', 'postgres://app:[REDACTED:connection_string]@db:5432/x'],
    ['connection_string (redis, no user)', 'redis://:hunter22x@cache:6379', 'redis://:[REDACTED:connection_string]@cache:6379'],
    ['password (env)', 'DB_PASSWORD=hunter22x ./run', 'DB_PASSWORD=[REDACTED:password] ./run'],
    ['password (JSON)', '{"password": "hunter22x"}', '{"password": "[REDACTED:password]"}'],
    ['password (escaped JSON)', '{\\"password\\":\\"hunter22x\\"}', '{\\"password\\":\\"[REDACTED:password]\\"}'],
    ['password (YAML)', 'db:\n  password: hunter22x\n', 'db:\n  password: [REDACTED:password]\n'],
    ['secret (python)', "client_secret = 'q8Zr5tLm2'", "client_secret = '[REDACTED:secret]'"],
    ['api_key (query)', 'GET /v1?api_key=abcd1234efgh&x=1', 'GET /v1?api_key=[REDACTED:api_key]&x=1'],
    ['token (query)', '?access_token=ya29a0AfH6SMB', '?access_token=[REDACTED:token]'],
  ];
  for (const [kind, input, expected] of cases) {
    it(kind, () => {
      const result = scrubSecrets(input);
      expect(result.text).toBe(expected);
      expect(Object.values(result.counts).reduce((a, b) => a + b, 0)).toBe(1);
    });
  }

  it('replaces a whole private key block, and one cut off before its END line', () => {
    const key = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1b2c3d4\nAbCdEfGh12345678==\n-----END RSA PRIVATE KEY-----';
    expect(scrubSecrets(`before\n${key}\nafter`).text).toBe('before\n[REDACTED:private_key]\nafter');
    const cut = '-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAA\\nAAAABG5vbmUAAAAEbm9uZQ';
    expect(scrubSecrets(cut)).toEqual({ text: '[REDACTED:private_key]', counts: { private_key: 1 } });
    const tail = 'last lines:\nAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\nb3BlbnNzaC1rZXktdjEAAAAA==\n-----END OPENSSH PRIVATE KEY-----\n';
    expect(scrubSecrets(tail).text).toBe('last lines:\n[REDACTED:private_key]\n');
  });

  it('counts per kind', () => {
    const result = scrubSecrets(`${OPENAI} ${OPENAI} password=hunter22x`);
    expect(result.counts).toEqual({ openai_key: 2, password: 1 });
  });
});

describe('scrubSecrets: leaves placeholders, code and prose alone', () => {
  const untouched = [
    'export ANTHROPIC_API_KEY=sk-ant-...',
    '"anthropic": "sk-ant-..."',
    'password=${DB_PASSWORD}',
    'password: <your password>',
    'api_key=YOUR_API_KEY',
    'token=$(cat ~/.token)',
    'const token = getToken();',
    'params: { _csrf_token: csrfToken },',
    'resolveApiKey: this._resolveApiKey,',
    'max_tokens: 4096',
    '"secret": false,',
    'The password: it must be eight characters long.',
    'Use a bearer token in the header.',
    'qpdf --password=mypassword --decrypt in.pdf',
    'postgres://user:password@localhost/db',
    'https://example.com:8080/path',
    'a task-runner-with-a-long-kebab-name-here',
  ];
  for (const text of untouched) {
    it(JSON.stringify(text), () => {
      expect(scrubSecrets(text)).toEqual({ text, counts: {} });
    });
  }
});

describe('scrubSecrets: idempotent', () => {
  it('scrubbing scrubbed text changes nothing', () => {
    const once = scrubSecrets(`a ${OPENAI} b password="hunter22x" c ${JWT} Bearer abcDEF123456ghiJKL789`);
    expect(scrubSecrets(once.text)).toEqual({ text: once.text, counts: {} });
  });
});
