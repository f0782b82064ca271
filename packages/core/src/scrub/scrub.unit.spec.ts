import { describe, expect, it } from 'vitest';
import { scrubSecrets } from './scrub.js';

const OPENAI = 'sk-proj-4fQx9Lm2Zt8Rb7Wc1Yh3Nk5Pv6Dj0Gs2Ea7Ti9Uo4';
const ANTHROPIC = 'sk-ant-api03-Xy7q1Wm9Zk3Lp5Rt8Vn2Bc4Hd6Jf0Gs1Ea7Ti9Uo4Qz-AbCdEfAA';
const MEM_TOKEN = 'mem_0123456789abcdef_Zx9-Qw8_Er7Ty6Ui5Op4As3Df2Gh1JkLzXcVbNmQwErT';
const JWT =
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

describe('scrubSecrets: each kind is replaced by its typed placeholder', () => {
  const cases: Array<[string, string, string]> = [
    ['openai_key', `key is ${OPENAI} ok`, 'key is [REDACTED:openai_key] ok'],
    [
      'openai_key (legacy)',
      'sk-Zq81234567890abcdefghijklmnopqrstuvwxABCDEFGH',
      '[REDACTED:openai_key]',
    ],
    ['anthropic_key', `export X=${ANTHROPIC}`, 'export X=[REDACTED:anthropic_key]'],
    [
      'github_token',
      'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB used',
      '[REDACTED:github_token] used',
    ],
    [
      'github_token (fine-grained)',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
      '[REDACTED:github_token]',
    ],
    ['aws_access_key', 'id AKIAIOSFODNN7EXAMPLE here', 'id [REDACTED:aws_access_key] here'],
    [
      'aws_secret_key',
      'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kL2mN4p',
      'aws_secret_access_key=[REDACTED:aws_secret_key]',
    ],
    ['slack_token', 'xoxb-123456789012-abcdefghijkl', '[REDACTED:slack_token]'],
    ['google_api_key', 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q', '[REDACTED:google_api_key]'],
    ['stripe_key', 'sk_live_51HxYzAbCdEfGhIjKlMnOpQr', '[REDACTED:stripe_key]'],
    [
      'bearer_token',
      'Authorization: Bearer abcDEF123456ghiJKL789',
      'Authorization: Bearer [REDACTED:bearer_token]',
    ],
    [
      'basic_auth',
      'Authorization: Basic dXNlcjpodW50ZXIy',
      'Authorization: Basic [REDACTED:basic_auth]',
    ],
    ['jwt', `token ${JWT}.`, 'token [REDACTED:jwt].'],
    [
      'connection_string',
      'postgres://app:s3cr3tPass@db:5432/x',
      'postgres://app:[REDACTED:connection_string]@db:5432/x',
    ],
    [
      'connection_string (redis, no user)',
      'redis://:hunter22x@cache:6379',
      'redis://:[REDACTED:connection_string]@cache:6379',
    ],
    ['password (env)', 'DB_PASSWORD=hunter22x ./run', 'DB_PASSWORD=[REDACTED:password] ./run'],
    ['password (JSON)', '{"password": "hunter22x"}', '{"password": "[REDACTED:password]"}'],
    [
      'password (escaped JSON)',
      '{\\"password\\":\\"hunter22x\\"}',
      '{\\"password\\":\\"[REDACTED:password]\\"}',
    ],
    ['password (YAML)', 'db:\n  password: hunter22x\n', 'db:\n  password: [REDACTED:password]\n'],
    ['secret (python)', "client_secret = 'q8Zr5tLm2'", "client_secret = '[REDACTED:secret]'"],
    [
      'api_key (query)',
      'GET /v1?api_key=abcd1234efgh&x=1',
      'GET /v1?api_key=[REDACTED:api_key]&x=1',
    ],
    ['token (query)', '?access_token=ya29a0AfH6SMB', '?access_token=[REDACTED:token]'],
    [
      'aws_secret_key (credentials file, spaces around =)',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kL2mN4p',
      'aws_secret_access_key = [REDACTED:aws_secret_key]',
    ],
    [
      'mem_token (the id is public and stays)',
      `MEM_TOKEN=${MEM_TOKEN} mem mcp`,
      'MEM_TOKEN=mem_0123456789abcdef_[REDACTED:mem_token] mem mcp',
    ],
    [
      'huggingface_token',
      'HF hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567 ok',
      'HF [REDACTED:huggingface_token] ok',
    ],
    [
      'github_token (glued to an id by -)',
      'retry-ghp_1234567890abcdefghijklmnopqrstuvwxyzAB',
      'retry-[REDACTED:github_token]',
    ],
    [
      'huggingface_token (glued to an id by _)',
      'id_hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
      'id_[REDACTED:huggingface_token]',
    ],
    [
      'password (--password X)',
      'mongo --password hunter22x --host db',
      'mongo --password [REDACTED:password] --host db',
    ],
    [
      'password (--db-password "X")',
      'deploy --db-password "hunter 22x"',
      'deploy --db-password "[REDACTED:password]"',
    ],
    [
      'token (--token X)',
      'vault login --token s1Zq8rT4mLp',
      'vault login --token [REDACTED:token]',
    ],
    [
      'password (mysql -pX)',
      'mysql -u root -phunter22x shop',
      'mysql -u root -p[REDACTED:password] shop',
    ],
    [
      "password (mysqldump -p'X')",
      "mysqldump -u app -p'hunter 22x' shop > dump.sql",
      "mysqldump -u app -p'[REDACTED:password]' shop > dump.sql",
    ],
    [
      'password (mysql in escaped JSON)',
      '{"command":"/usr/bin/mysql -h db -u root -phunter22x -e \\"select 1\\""}',
      '{"command":"/usr/bin/mysql -h db -u root -p[REDACTED:password] -e \\"select 1\\""}',
    ],
    [
      'password (sshpass -p X)',
      'sshpass -p hunter22x ssh deploy@host',
      'sshpass -p [REDACTED:password] ssh deploy@host',
    ],
    [
      'password (curl -u user:pass)',
      'curl -u admin:hunter22x https://api.internal/v1',
      'curl -u admin:[REDACTED:password] https://api.internal/v1',
    ],
    [
      'password (curl --user user:pass)',
      'curl -s --user admin:hunter22x https://api.internal/v1',
      'curl -s --user admin:[REDACTED:password] https://api.internal/v1',
    ],
    [
      'password (curl --user=user:pass)',
      'curl --user=admin:hunter22x https://x',
      'curl --user=admin:[REDACTED:password] https://x',
    ],
    [
      'password (curl -uuser:pass)',
      'curl -uadmin:hunter22x https://x',
      'curl -uadmin:[REDACTED:password] https://x',
    ],
    [
      'password (curl -u "user:pass")',
      'curl -u "admin:hunter 22x" https://x',
      'curl -u "admin:[REDACTED:password]" https://x',
    ],
  ];
  for (const [kind, input, expected] of cases) {
    it(kind, () => {
      const result = scrubSecrets(input);
      expect(result.text).toBe(expected);
      expect(Object.values(result.counts).reduce((a, b) => a + b, 0)).toBe(1);
    });
  }

  it('replaces a whole private key block, and one cut off before its END line', () => {
    const key =
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1b2c3d4\nAbCdEfGh12345678==\n-----END RSA PRIVATE KEY-----';
    expect(scrubSecrets(`before\n${key}\nafter`).text).toBe(
      'before\n[REDACTED:private_key]\nafter',
    );
    const cut =
      '-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAA\\nAAAABG5vbmUAAAAEbm9uZQ';
    expect(scrubSecrets(cut)).toEqual({
      text: '[REDACTED:private_key]',
      counts: { private_key: 1 },
    });
    const tail =
      'last lines:\nAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\nb3BlbnNzaC1rZXktdjEAAAAA==\n-----END OPENSSH PRIVATE KEY-----\n';
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
    // Short `-p` flags are not passwords: only a mysql-family command line takes `-p<password>`.
    'mkdir -p build/out',
    'docker run -p 8080:80 nginx',
    'docker run -p8080:80 nginx',
    'ssh -p2222 deploy@host',
    'gcc -pthread main.c',
    'patch -p1 < fix.diff',
    'tar -pxzf release.tgz',
    // mysql's `-p` with a space prompts for the password: the next word is the database.
    'mysql -u root -p shop',
    'mysql -u root -p',
    'mysql -u root -p$MYSQL_PWD shop',
    'mysql --port=3306 -P 3306',
    // `-u user:group` is a uid, not a credential, outside curl; curl without a password prompts.
    'docker run -u 1000:1000 img',
    'docker exec -u www-data:www-data web ls',
    'git push -u origin main',
    'curl -u admin https://api.internal/v1',
    'curl -u "$USER:$PASS" https://x',
    'curl --user-agent "Mozilla/5.0 (X11; Linux:x86_64)" https://x',
    'log in as user:hunter22x on the staging box',
    // A `--password` flag with no value, or a reference, or prose about the flag.
    'docker login --password-stdin',
    'mongo --password --host db',
    'mongo --password $DB_PASSWORD',
    'pass it with the --password option',
    // Hugging Face identifiers, not tokens.
    'from huggingface_hub import hf_hub_download',
    'mem_0123456789abcdef is the id of a token',
  ];
  for (const text of untouched) {
    it(JSON.stringify(text), () => {
      expect(scrubSecrets(text)).toEqual({ text, counts: {} });
    });
  }
});

describe('scrubSecrets: idempotent', () => {
  it('scrubbing scrubbed text changes nothing', () => {
    const once = scrubSecrets(
      `a ${OPENAI} b password="hunter22x" c ${JWT} Bearer abcDEF123456ghiJKL789`,
    );
    expect(scrubSecrets(once.text)).toEqual({ text: once.text, counts: {} });
  });
});
