import { onCommandLineOf } from './command-line.js';
import {
  runsIntoPlaceholder,
  tagged,
  type Replacement,
  type SecretPattern,
} from './pattern-kit.js';
import { isPlaceholderValue } from './placeholder.js';

/*
 * Passwords passed on a command line. A flag starts a word (after a blank, a quote of an argv
 * array, or a JSON escape); its value is quoted (plain or JSON-escaped quotes) or a bare word.
 * Every repetition is bounded, so each attempt costs at most a few hundred steps.
 */
const FLAG_START = String.raw`(?:(?<![^\s"',])|(?<=\\[nrt]))`;
const VALUE = String.raw`(?:(?<q>\\?["'])([^"'\\\r\n]{1,256}?)\k<q>|([^\s"'\\;|&<>(){}[\]]{1,256}))`;

/** Words that follow a flag in prose about it (`the --password option`), never a password. */
const PROSE_AFTER_FLAG = new Set([
  'argument',
  'arguments',
  'flag',
  'flags',
  'option',
  'options',
  'parameter',
  'switch',
  'value',
]);

/** A flag's value as a secret of `kind`, or null when it is a placeholder, the next flag, or prose. */
function flagValue(
  kind: string,
  before: string,
  groups: Array<string | undefined>,
  end: number,
  whole: string,
): Replacement | null {
  const [quote, quoted, bare] = groups;
  const value = quoted ?? bare ?? '';
  if (isPlaceholderValue(value) || runsIntoPlaceholder(whole, end)) return null;
  if (bare !== undefined && (bare.startsWith('-') || PROSE_AFTER_FLAG.has(bare.toLowerCase())))
    return null;
  return tagged(kind, before + (quote ?? ''), quote ?? '');
}

export const COMMAND_FLAG_PATTERNS: readonly SecretPattern[] = [
  {
    // `--password X`, `--db-password "X"`, `--token X` (the `=` forms are assignments, matched later).
    kind: 'password',
    regex: new RegExp(
      String.raw`${FLAG_START}(--(?:[a-z0-9]{1,20}-){0,3}(pass(?:word|wd|phrase)|token|secret|api-?key)[ \t]+)${VALUE}`,
      'g',
    ),
    trigger: /--(?:[a-z0-9-]{0,60})(?:pass(?:word|wd|phrase)|token|secret|api-?key)[ \t]/,
    replace: (m, [flag = '', word = '', ...value], offset, whole) =>
      flagValue(
        word.startsWith('pass') ? 'password' : word.startsWith('api') ? 'api_key' : word,
        flag,
        value,
        offset + m.length,
        whole,
      ),
  },
  {
    // mysql-family clients take the password glued to `-p` (`-pS3cret`); `-p` alone prompts.
    kind: 'password',
    regex: new RegExp(String.raw`${FLAG_START}(-p)${VALUE}`, 'g'),
    trigger: /mysql|mariadb/,
    context: onCommandLineOf(/mysql[a-z]*|mariadb[a-z-]*/),
    replace: (m, [flag = '', ...value], offset, whole) =>
      flagValue('password', flag, value, offset + m.length, whole),
  },
  {
    // sshpass takes it after `-p`, glued or not.
    kind: 'password',
    regex: new RegExp(String.raw`${FLAG_START}(-p[ \t]*)${VALUE}`, 'g'),
    trigger: /sshpass/,
    context: onCommandLineOf(/sshpass/),
    replace: (m, [flag = '', ...value], offset, whole) =>
      flagValue('password', flag, value, offset + m.length, whole),
  },
  {
    // curl's `-u user:password` / `--user user:password`; the user stays. Without a colon curl prompts.
    kind: 'password',
    regex: new RegExp(
      String.raw`${FLAG_START}(-u[ \t]*|--user(?:[ \t]+|=))(?:(\\?["'])([^"'\\\r\n:]{0,128}:)([^"'\\\r\n]{1,256}?)\2|([^\s"'\\:]{0,128}:)([^\s"'\\]{1,256}))`,
      'g',
    ),
    trigger: /curl/,
    context: onCommandLineOf(/curl/),
    replace: (
      m,
      [flag = '', quote, quotedUser, quotedPassword, bareUser, barePassword],
      offset,
      whole,
    ) => {
      const password = quotedPassword ?? barePassword ?? '';
      if (isPlaceholderValue(password) || runsIntoPlaceholder(whole, offset + m.length))
        return null;
      const q = quote ?? '';
      return tagged('password', `${flag}${q}${quotedUser ?? bareUser ?? ''}`, q);
    },
  },
];
