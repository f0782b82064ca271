import { MemError } from '@mem/core';
import matter from 'gray-matter';
import yaml from 'js-yaml';

/** A file's frontmatter (plain YAML data) and the markdown after it. */
export interface ParsedNote {
  data: Record<string, unknown>;
  content: string;
}

function refused(
  path: string,
  why: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): MemError {
  return new MemError(
    'FRONTMATTER_REFUSED',
    `${path}: frontmatter refused: ${why}`,
    { path, ...details },
    cause === undefined ? {} : { cause },
  );
}

/**
 * The language named after the opening `---` (`---js`, `--- coffee`), or '' for none. gray-matter
 * reads it the same way, and would run `js`/`javascript` frontmatter through eval.
 */
function languageMarker(text: string): string {
  if (!text.startsWith('---') || text.startsWith('----')) return '';
  const end = text.search(/\r?\n/);
  return text.slice(3, end === -1 ? undefined : end).trim();
}

/**
 * Plain data only: no collection reached twice (an alias: a few lines of YAML can expand into
 * gigabytes of JSON, or a cycle that no serializer ends), no `__proto__` key (a consumer that
 * merges the JSON with `Object.assign` would get a new prototype).
 */
function assertPlainData(path: string, value: unknown, seen: Set<object>, at: string): void {
  if (value === null || typeof value !== 'object') return;
  if (seen.has(value))
    throw refused(path, `${at}: a YAML alias of a collection; write the value out`, { field: at });
  seen.add(value);
  for (const [key, child] of Object.entries(value)) {
    const field = at === '' ? key : `${at}.${key}`;
    if (key === '__proto__')
      throw refused(path, `${field}: the key __proto__ is not allowed`, { field });
    assertPlainData(path, child, seen, field);
  }
}

/**
 * YAML's core schema: strings, numbers, booleans, null, lists and maps. No timestamps (a date
 * stays the string it was written as), no `!!binary`, `!!set`, `!!omap`, `<<` merges, and no
 * `!!js/*` types; any other tag is an error.
 */
function parseYaml(path: string, text: string): object {
  let value: unknown;
  try {
    value = yaml.load(text, { schema: yaml.CORE_SCHEMA, filename: path });
  } catch (error) {
    throw refused(path, `not YAML (${(error as Error).message.split('\n')[0]})`, {}, error);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw refused(path, 'expected a YAML mapping');
  assertPlainData(path, value, new Set(), '');
  return value;
}

/**
 * Parses a vault file (`path` is vault-relative, for messages). FRONTMATTER_REFUSED naming the
 * file when its frontmatter names a language (`---js`, `---toml`, even `---yaml`: the projector
 * never writes one) or is not plain YAML data. Nothing in a file is ever executed.
 */
export function parseNote(path: string, text: string): ParsedNote {
  const language = languageMarker(text);
  if (language !== '')
    throw refused(path, `a ${JSON.stringify(language)} block; only YAML frontmatter is read`, {
      language,
    });
  const onlyYaml = (name: string) => () => {
    throw refused(path, `a ${JSON.stringify(name)} block; only YAML frontmatter is read`, {
      language: name,
    });
  };
  // Why engines too: should a marker ever slip past the check above, gray-matter still finds
  // no engine but this YAML one (its defaults include `javascript`, which evals).
  const parsed = matter(text, {
    language: 'yaml',
    engines: {
      yaml: (block: string) => parseYaml(path, block),
      javascript: onlyYaml('javascript'),
      json: onlyYaml('json'),
      coffee: onlyYaml('coffee'),
    },
  });
  return { data: parsed.data, content: parsed.content };
}
