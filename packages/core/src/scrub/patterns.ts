import { COMMAND_FLAG_PATTERNS } from './command-flags.js';
import { isPlaceholderValue } from './placeholder.js';
import {
  afterWordBreak,
  bounded,
  caseless,
  runsIntoPlaceholder,
  tagged,
  type Replacement,
  type SecretPattern,
} from './pattern-kit.js';
import { KEY_BEGIN, KEY_END, KeyEndFinder, keyBlockEnd, keyTailStart } from './private-key.js';

export type { Replacement, SecretPattern } from './pattern-kit.js';

/**
 * Ordered: provider keys with unmistakable prefixes first, then structural forms (key blocks,
 * JWTs, URLs, headers), then `key=value` assignments last, so a value already replaced by an
 * earlier placeholder (`[REDACTED:…]`) is never matched again.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    kind: 'private_key',
    regex: KEY_BEGIN,
    trigger: /PRIVATE KEY/,
    spans: (whole) => {
      const ends = new KeyEndFinder(whole);
      return (start, end) => [start, keyBlockEnd(whole, end, ends)];
    },
  },
  {
    kind: 'private_key',
    regex: KEY_END,
    trigger: /-----END[A-Z0-9 ]{0,40}PRIVATE KEY/,
    spans: (whole) => (start, end) => [keyTailStart(whole, start), end],
  },
  {
    kind: 'mem_token',
    // mem's own bearer tokens (registry credentials.ts): the id is public and stays, the secret goes.
    regex: bounded(String.raw`(mem_[0-9a-f]{16}_)[A-Za-z0-9_-]{43,}`),
    trigger: /mem_[0-9a-f]{16}_/,
    replace: (_m, [prefix = '']) => tagged('mem_token', prefix),
  },
  {
    kind: 'anthropic_key',
    regex: bounded(String.raw`sk-ant-[A-Za-z0-9_-]{20,}`),
    trigger: /sk-ant-/,
  },
  {
    kind: 'openai_key',
    // At least one digit in the body: keeps kebab-case words like `sk-some-long-class-name` out.
    regex: bounded(
      String.raw`sk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_-]{0,256}\d)[A-Za-z0-9_-]{20,}`,
    ),
    trigger: /sk-/,
  },
  {
    kind: 'github_token',
    regex: afterWordBreak(String.raw`gh[pousr]_[A-Za-z0-9]{30,}`),
    trigger: /gh[pousr]_/,
  },
  {
    kind: 'github_token',
    regex: bounded(String.raw`github_pat_[A-Za-z0-9_]{30,}`),
    trigger: /github_pat_/,
  },
  {
    kind: 'stripe_key',
    regex: afterWordBreak(String.raw`(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}`),
    trigger: /[sr]k_(?:live|test)_/,
  },
  {
    kind: 'slack_token',
    regex: bounded(String.raw`xox[abposr]-[A-Za-z0-9-]{10,}`),
    trigger: /xox[abposr]-/,
  },
  // Hugging Face user access tokens: `hf_` and 34 letters and digits (never an `_`, unlike `hf_hub_download`).
  {
    kind: 'huggingface_token',
    regex: afterWordBreak(String.raw`hf_[A-Za-z0-9]{30,}`),
    trigger: /hf_/,
  },
  {
    kind: 'google_api_key',
    regex: afterWordBreak(String.raw`AIza[0-9A-Za-z_-]{35}`),
    trigger: /AIza/,
  },
  {
    kind: 'aws_access_key',
    regex: afterWordBreak(String.raw`(?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[A-Z0-9]{16}(?![A-Z0-9])`),
    trigger: /A(?:KIA|SIA|BIA|CCA|ROA|IDA)/,
  },
  {
    kind: 'jwt',
    regex: bounded(String.raw`eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`),
    trigger: /eyJ/,
  },
  {
    kind: 'connection_string',
    regex: /\b([a-z][a-z0-9+.-]{1,20}:\/\/)([^\s:/@"'\\<>]{0,100}):([^\s@"'\\<>/]{1,200})@/gi,
    trigger: /:\/\//,
    replace: (_m, [scheme = '', user = '', password = '']) =>
      isPlaceholderValue(password) ? null : tagged('connection_string', `${scheme}${user}:`, '@'),
  },
  {
    kind: 'bearer_token',
    regex: bounded(String.raw`(bearer\s+)([A-Za-z0-9._~+/-]{12,}=*)`, 'gi'),
    trigger: caseless('bearer'),
    replace: (_m, [prefix = '', token = '']) =>
      isPlaceholderValue(token) ? null : tagged('bearer_token', prefix),
  },
  {
    kind: 'basic_auth',
    regex: bounded(
      String.raw`(authorization\\?["']?\s*[:=]\s*\\?["']?basic\s+)([A-Za-z0-9+/]{8,}={0,2})`,
      'gi',
    ),
    trigger: caseless('basic'),
    replace: (_m, [prefix = '', token = '']) =>
      isPlaceholderValue(token) ? null : tagged('basic_auth', prefix),
  },
  ...COMMAND_FLAG_PATTERNS,
  {
    kind: 'assignment',
    // keyword, optional closing quote of a quoted key, separator, then a quoted or bare value.
    regex:
      /(passwd|passphrase|password|secret[_-]?key|secret|api[_-]?key|access[_-]?key|token)(\\?["']?)([ \t]{0,16}(?:=>|:=|=|:)[ \t]{0,16})(?:(\\?["'])([^"'\\\r\n]{1,1024}?)\4|([^\s"'\\,;&<>(){}[\]]{1,1024}))/gi,
    trigger: new RegExp(
      `(?:${['pass', 'secret', 'key', 'token'].map((w) => caseless(w).source).join('|')})[A-Za-z_-]{0,6}\\\\?["']?[ \\t]*[=:]`,
    ),
    replace: replaceAssignment,
  },
];

/** An AWS secret access key (40 characters) or session token (longer): base64 only. */
const AWS_SECRET_VALUE = /^[A-Za-z0-9/+=]{40,}$/u;

/** `this._resolveApiKey`, `refreshedCreds.access`, `process.env.TOKEN`: code, not a value. */
const CODE_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/u;

function replaceAssignment(
  match: string,
  groups: Array<string | undefined>,
  offset: number,
  whole: string,
): Replacement | null {
  const [keyword = '', keyQuote = '', separator = '', valueQuote, quoted, bare] = groups;
  const value = quoted ?? bare ?? '';
  if (isPlaceholderValue(value)) return null;
  if (bare !== undefined) {
    if (runsIntoPlaceholder(whole, offset + match.length)) return null;
    // Trigger: `token = getToken()`, `{ apiKey: resolvedKey, … }`, `password: must be 8 chars`.
    // Why: code and prose, not config. Outcome: a bare value counts only as `key=value` with no
    // spaces (env, shell, URL query) or as a `key: value` that ends its line (YAML), and never
    // when it is a dotted code path (`this.apiKey`, `process.env.TOKEN`).
    if (CODE_PATH.test(bare)) return null;
    // Trigger: `aws_secret_access_key = wJalr…` (~/.aws/credentials, spaces around `=`). Why: that
    // file format is INI, and the value has the unmistakable shape of an AWS secret (40+ base64
    // characters). Outcome: counts even with spaces.
    if (
      AWS_SECRET_VALUE.test(bare) &&
      assignmentKind(keyword, whole.slice(Math.max(0, offset - 24), offset)) === 'aws_secret_key'
    ) {
      return tagged('aws_secret_key', `${keyword}${keyQuote}${separator}`);
    }
    if (separator.includes(':') && !separator.includes(':=')) {
      const after = whole.slice(offset + match.length, offset + match.length + 3);
      if (!/^[ \t]*(?:$|[\r\n]|\\[nr])/u.test(after)) return null;
    } else if (/\s/u.test(separator)) {
      return null;
    }
  }
  const kind = assignmentKind(keyword, whole.slice(Math.max(0, offset - 24), offset));
  const quote = valueQuote ?? '';
  return tagged(kind, `${keyword}${keyQuote}${separator}${quote}`, quote);
}

function assignmentKind(keyword: string, before: string): string {
  const key = keyword.toLowerCase();
  if (key.startsWith('pass')) return 'password';
  if (/aws/iu.test(before) || (key.startsWith('access') && /secret[_-]?$/iu.test(before)))
    return 'aws_secret_key';
  if (key.startsWith('secret')) return 'secret';
  if (key === 'token') return 'token';
  return 'api_key';
}

/** Any pattern's trigger: one scan that clears most text at once. */
export const ANY_TRIGGER = new RegExp(SECRET_PATTERNS.map((p) => p.trigger.source).join('|'));
