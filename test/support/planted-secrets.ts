/*
 * One secret of every kind the scrubber knows, and a Claude Code transcript that carries them in
 * each of the four text paths (user text, assistant text, tool input, tool output) and in the
 * fields that are not text (session id → source, cwd, uuid → entry). Tests grep every file mem
 * wrote for `secret` parts: none may survive.
 */

/** A planted secret: the snippet as it appears in text, and the part that must never be stored. */
export interface PlantedSecret {
  kind: string;
  snippet: string;
  secret: string;
}

export const PLANTED_SECRETS: readonly PlantedSecret[] = [
  {
    kind: 'aws_secret_spaced',
    snippet: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kL2mN4p',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kL2mN4p',
  },
  {
    kind: 'mem_token',
    snippet: 'MEM_TOKEN=mem_0123456789abcdef_Zx9-Qw8_Er7Ty6Ui5Op4As3Df2Gh1JkLzXcVbNmQwErT',
    secret: 'Zx9-Qw8_Er7Ty6Ui5Op4As3Df2Gh1JkLzXcVbNmQwErT',
  },
  {
    kind: 'password_flag',
    snippet: 'mongo --password Qz8hunterPw1 --host db',
    secret: 'Qz8hunterPw1',
  },
  {
    kind: 'password_flag_eq',
    snippet: 'mongo --password=Qz8hunterEq2 --host db',
    secret: 'Qz8hunterEq2',
  },
  { kind: 'mysql_p', snippet: 'mysql -u root -pQz8hunterMy3 shop', secret: 'Qz8hunterMy3' },
  {
    kind: 'curl_user',
    snippet: 'curl -u admin:Qz8hunterCu4 https://api.internal/v1',
    secret: 'Qz8hunterCu4',
  },
  {
    kind: 'curl_user_long',
    snippet: 'curl --user admin:Qz8hunterCu5 https://api.internal/v1',
    secret: 'Qz8hunterCu5',
  },
  {
    kind: 'huggingface_token',
    snippet: 'HF_TOKEN hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
    secret: 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
  },
  {
    kind: 'github_token',
    snippet: 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB',
    secret: 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB',
  },
];

/** Secrets planted in fields that are not text: identities and context. */
export const FIELD_SECRETS = {
  session: 'ghp_SessionIdToken0123456789abcdefghijklmn',
  cwd: 'hf_CwdTokenAbCdEfGhIjKlMnOpQrStUvWxYz0123',
  entry: 'ghp_EntryUuidToken0123456789abcdefghijklm',
} as const;

/** Every secret part a test must not find anywhere. */
export const ALL_PLANTED: readonly string[] = [
  ...PLANTED_SECRETS.map((p) => p.secret),
  ...Object.values(FIELD_SECRETS),
];

const all = PLANTED_SECRETS.map((p) => p.snippet).join('\n');

/** A Claude Code session (JSONL) with every planted secret in every text path and field. */
export function claudeTranscriptWithSecrets(): string {
  const base = {
    sessionId: `s-${FIELD_SECRETS.session}`,
    cwd: `/home/dev/${FIELD_SECRETS.cwd}/app`,
    version: '2.1.38',
    isSidechain: false,
    userType: 'external',
  };
  const lines = [
    {
      ...base,
      type: 'user',
      uuid: `u1-${FIELD_SECRETS.entry}`,
      parentUuid: null,
      timestamp: '2026-02-10T21:11:52.000Z',
      message: { role: 'user', content: `The deploy is broken; these are what I ran:\n${all}` },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: `u1-${FIELD_SECRETS.entry}`,
      timestamp: '2026-02-10T21:11:53.000Z',
      message: {
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: `Root cause: the deploy failed with 401 Unauthorized because the deploy token had expired; rotating the token fixed it. The commands used ${all}`,
          },
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'Bash',
            input: { command: PLANTED_SECRETS.map((p) => p.snippet).join(' && ') },
          },
        ],
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u2',
      parentUuid: 'a1',
      timestamp: '2026-02-10T21:11:54.000Z',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: `error: the deploy failed\n${all}`,
            is_error: true,
          },
        ],
      },
    },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}
