import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, relative, resolve, sep } from 'node:path';
import { globSync } from 'tinyglobby';
import { MemError } from '@mem/core';

/** Largest file a corpus reads, in bytes: documentation, not data dumps. */
export const MAX_REFERENCE_FILE_BYTES = 1024 * 1024;

/** The extensions read as markdown (split at headings); every other matched file is plain text. */
const MARKDOWN = new Set(['.md', '.markdown', '.mdx']);

/** A file of the corpus, read: its source URI (the path relative to the root, `/`-separated). */
export interface CorpusFile {
  uri: string;
  text: string;
  markdown: boolean;
}

/** A matched file not read, and why: files are untrusted input, so each refusal is reported. */
export interface SkippedFile {
  uri: string;
  reason:
    | 'too_large'
    | 'binary'
    | 'invalid_utf8'
    | 'symlink_outside_root'
    /** A link to a file the corpus already reads under another path (read once). */
    | 'symlink_duplicate'
    | 'unreadable';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The root as a real directory path, or INVALID_INPUT naming it. */
export function corpusRoot(root: string): string {
  let real: string;
  try {
    real = realpathSync(resolve(root));
  } catch (cause) {
    throw new MemError(
      'INVALID_INPUT',
      `corpus root ${root} does not exist`,
      { field: 'path', root },
      { cause },
    );
  }
  if (!statSync(real).isDirectory())
    throw new MemError('INVALID_INPUT', `corpus root ${root} is not a directory`, {
      field: 'path',
      root,
    });
  return real;
}

function readOne(root: string, uri: string, read: Set<string>): CorpusFile | SkippedFile {
  const path = resolve(root, uri);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { uri, reason: 'unreadable' };
  }
  // Trigger: a symlink (the file or a directory on its way) leading out of the root. Why: a
  // corpus is what lies under its root; a link to ~/.ssh must not become searchable text.
  if (real !== root && !real.startsWith(root + sep)) return { uri, reason: 'symlink_outside_root' };
  if (read.has(real)) return { uri, reason: 'symlink_duplicate' };
  read.add(real);
  let bytes: Buffer;
  try {
    if (statSync(real).size > MAX_REFERENCE_FILE_BYTES) return { uri, reason: 'too_large' };
    bytes = readFileSync(real);
  } catch {
    return { uri, reason: 'unreadable' };
  }
  if (bytes.length > MAX_REFERENCE_FILE_BYTES) return { uri, reason: 'too_large' };
  if (bytes.includes(0)) return { uri, reason: 'binary' };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { uri, reason: 'invalid_utf8' };
  }
  return { uri, text, markdown: MARKDOWN.has(extname(uri).toLowerCase()) };
}

/**
 * Every regular file under `root` a glob matches, sorted by URI, read or skipped with its
 * reason. Symbolic links are followed (tinyglobby stops at loops) and each file resolved, so
 * one leading outside the root is refused and reported rather than silently left out.
 */
export function readCorpusFiles(
  root: string,
  globs: readonly string[],
): { files: CorpusFile[]; skipped: SkippedFile[] } {
  const uris = globSync([...globs], {
    cwd: root,
    onlyFiles: true,
    dot: false,
    followSymbolicLinks: true,
  })
    .map((p) => relative(root, resolve(root, p)).split(sep).join('/'))
    .filter((uri) => uri !== '' && !uri.startsWith('../'));
  const files: CorpusFile[] = [];
  const skipped: SkippedFile[] = [];
  const read = new Set<string>();
  for (const uri of [...new Set(uris)].sort()) {
    const entry = lstatSync(resolve(root, uri));
    if (!entry.isFile() && !entry.isSymbolicLink()) continue;
    const one = readOne(root, uri, read);
    if ('reason' in one) skipped.push(one);
    else files.push(one);
  }
  return { files, skipped };
}
