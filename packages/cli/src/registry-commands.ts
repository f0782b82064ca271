import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { MemError, isMemError, projectNameSchema, terminalSafe } from '@mem/core';
import { splitList, validateInput, type AnyOperation, type CliOption } from '@mem/registry';
import { type GlobalOptions } from './context.js';
import { UsageError, VerificationFailed } from './exit.js';
import { newProjectLine, newProjects } from './existence.js';
import { writeJson, writeLine, type CliIO } from './io.js';
import { localPrincipal, openCliRegistry, type RegistryOpener } from './open-registry.js';
import { readInputFile, unreadableFileCode } from './input-file.js';
import { ProgressLine } from './progress.js';

/** A registry operation's input was refused: exit 2, and `--json` still shows its error code. */
export class RegistryUsageError extends UsageError {}

/** A flag's text as its input field: the operation's schema, not this, decides what is valid. */
function parseOption(option: CliOption, value: string | string[]): unknown {
  const values = Array.isArray(value) ? value : [value];
  if (option.parse === 'list-or-star' && values.length === 1 && values[0]!.trim() === '*')
    return '*';
  if (option.parse === 'list' || option.parse === 'list-or-star') return splitList(values);
  const last = values.at(-1)!;
  // A negative or fractional number is parsed too, so the schema says what is wrong with it
  // (`expected at least 1, got -5`, `expected int, got 5.5`), not that it is no number.
  if (option.parse === 'integer' && /^-?\d+(\.\d+)?$/.test(last) && Number.isFinite(Number(last)))
    return Number(last);
  return last;
}

/**
 * A `jsonl-file` flag's file as the array of its lines' objects (blank lines skipped), with the
 * line each came from. A line that is not JSON is INVALID_INPUT naming the file and line; the
 * operation's schema judges the rest, naming `items[i]`, which a refusal says with its line.
 */
function readJsonlFile(
  cwd: string,
  option: CliOption,
  value: string | string[],
): { objects: unknown[]; lines: number[] } {
  const path = resolve(cwd, Array.isArray(value) ? value.at(-1)! : value);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new MemError(
      unreadableFileCode(error),
      `${option.flag.split(' ')[0]!}: cannot read ${path}: ${(error as Error).message}`,
      {
        field: option.field,
        file: path,
      },
    );
  }
  const out: unknown[] = [];
  const lines: number[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    try {
      out.push(JSON.parse(raw));
      lines.push(index + 1);
    } catch (error) {
      throw new MemError(
        'INVALID_INPUT',
        `${path}:line ${index + 1}: not valid JSON (${(error as Error).message}); expected one JSON object per line`,
        { field: option.field, file: path, line: index + 1 },
      );
    }
  });
  return { objects: out, lines };
}

/**
 * What a command's input was typed as: its flags, its positional arguments, and for each
 * `jsonl-file` flag's field the file line of each object.
 */
interface CliTerms {
  options: readonly CliOption[];
  args: readonly string[];
  lines: Map<string, readonly number[]>;
}

/**
 * A refused input (INVALID_INPUT, INVALID_PROJECT) as a usage error, exit 2; another error that
 * names a field of a flag (`from_line: no line …`, NOT_FOUND) said as the flag, its code kept.
 */
function usageError(terms: CliTerms, error: unknown): unknown {
  if (!isMemError(error)) return error;
  if (error.code !== 'INVALID_INPUT' && error.code !== 'INVALID_PROJECT')
    return typeof error.details['field'] === 'string' ? inFlagTerms(terms, error) : error;
  const refused = inFlagTerms(terms, error);
  return new RegistryUsageError(refused.message, { cause: refused });
}

/** A refused field that came from a flag, said as the flag (`--citations: ...`): the user typed the flag, not the field. */
function inFlagTerms(terms: CliTerms, error: MemError): MemError {
  const { options } = terms;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a validation error's field is a path string
  const path = String(error.details['field'] ?? '');
  const field = path.split(/[[.]/)[0]!;
  const option = options.find((o) => o.field === field);
  if (field === '(input)') return withFlagNames(options, error);
  // A positional argument is named as the usage line shows it (`mem query <query>`), not by its
  // field after the operation (`query: query: …`).
  const wrong = problemAt(error, path);
  if (!option && terms.args.includes(field) && path === field && wrong !== null)
    return new MemError(
      error.code,
      `the <${field}> argument: ${inFlagWords(wrong, options, undefined)}`,
      error.details,
      { cause: error },
    );
  // An object of a `jsonl-file` flag's file is named by its line as well as its place in the
  // batch: `--file: line 3 (items[1]).detail: …`.
  const lines = terms.lines.get(field);
  const at = /^[^[.]+\[(\d+)\](.*)$/.exec(path);
  const line = at !== null ? lines?.[Number(at[1])] : undefined;
  if (option && at !== null && line !== undefined)
    return new MemError(
      error.code,
      `${option.flag.split(' ')[0]!}: line ${line} (${field}[${at[1]!}])${at[2]!}: ${wrong ?? error.message}`,
      // The details stay the operation's, as HTTP and MCP give them: the line is the CLI's.
      error.details,
      { cause: error },
    );
  if (!option) {
    // A positional argument's field (`remember: text: expected the text, or from_line`): its
    // flags still read as flags.
    const said = inFlagWords(error.message, options, undefined);
    return said === error.message
      ? error
      : new MemError(error.code, said, error.details, { cause: error });
  }
  const flag = option.flag.split(' ')[0]!;
  // Trigger: the flag's own value is refused (not a field inside it). Outcome: the flag and
  // what is wrong with it (`--reason: missing, expected string`), not the field's name again.
  const issues = error.details['issues'];
  const first = Array.isArray(issues) ? (issues[0] as { field?: unknown; problem?: unknown }) : {};
  // A value inside a list flag (`level[1]`) is named by the problem itself (`got "L9"`).
  const ownValue =
    typeof first.field === 'string' &&
    (first.field === option.field || first.field.startsWith(`${option.field}[`));
  const problem = inFlagWords(
    ownValue && typeof first.problem === 'string'
      ? first.problem
      : withoutOperation(error.message, path, option.field),
    options,
    option,
  );
  const said =
    /^[ :]/.test(problem.slice(flag.length)) && problem.startsWith(flag)
      ? problem
      : `${flag}: ${problem}`;
  return new MemError(error.code, said, error.details, { cause: error });
}

/**
 * A problem that names fields (`expected remind_at: a reminder is a time trigger`, `due does
 * not apply to a rule`) in the flags the user typed: `--remind-at`, `--due`. Replaced: the
 * refused flag's own field where it opens the problem, and every field with an underscore
 * anywhere (never an English word, unlike `project` in "expected a project name"; the
 * source_uri/source_sha256 pair's message names both). HTTP and MCP keep the field names.
 */
function inFlagWords(
  problem: string,
  options: readonly CliOption[],
  own: CliOption | undefined,
): string {
  let said = problem;
  if (own && said.startsWith(`${own.field} `))
    said = `${own.flag.split(' ')[0]!}${said.slice(own.field.length)}`;
  for (const option of options) {
    if (!option.field.includes('_')) continue;
    said = said.replace(
      new RegExp(`(?<![\\w.[-])${option.field}(?![\\w.[-])`, 'g'),
      option.flag.split(' ')[0]!,
    );
  }
  return said;
}

/**
 * A refusal of the input as a whole (`context: (input): expected at least one of tool, task,
 * signature_source`) in the flags the user types: `context: expected at least one of --tool,
 * --task, --signature-source`.
 */
function withFlagNames(options: readonly CliOption[], error: MemError): MemError {
  const at = error.message.indexOf(': (input): ');
  if (at < 0) return error;
  let said = error.message.slice(at + ': (input): '.length);
  for (const option of options)
    said = said.replace(new RegExp(`\\b${option.field}\\b`, 'g'), option.flag.split(' ')[0]!);
  return new MemError(error.code, `${error.message.slice(0, at)}: ${said}`, error.details, {
    cause: error,
  });
}

/**
 * What is wrong, once the flag names the field: `seq 9 is past the head` out of `query: as_of:
 * seq 9 is past the head`, so the user reads `--as-of: seq 9 …`, not `--as-of: query: as_of: …`.
 * A value of a list flag is named by its place too (`anchor[0]: no live item it-…`): the flag
 * and the value the message names say it once (`--anchor: no live item it-…`). A message of
 * another shape is kept whole.
 */
function withoutOperation(message: string, ...fields: string[]): string {
  for (const field of fields) {
    if (message.startsWith(`${field}: `)) return message.slice(field.length + 2);
    const at = message.indexOf(`: ${field}: `);
    if (at >= 0 && !/[\s:]/.test(message.slice(0, at))) return message.slice(at + field.length + 4);
  }
  return message;
}

/**
 * What is wrong with the field at `path`, without the operation and field before it: the
 * schema's own problem (`expected at least 1 character, got an empty string`), or what a
 * message says after `path: ` (`add_items: items[1].parent: no live item …`); null when the
 * message does not name the field so.
 */
function problemAt(error: MemError, path: string): string | null {
  const issues = error.details['issues'];
  const first = Array.isArray(issues) ? (issues[0] as { field?: unknown; problem?: unknown }) : {};
  if (first.field === path && typeof first.problem === 'string') return first.problem;
  const inside = error.message.indexOf(`: ${path}: `);
  if (inside >= 0) return error.message.slice(inside + path.length + 4);
  return error.message.startsWith(`${path}: `) ? error.message.slice(path.length + 2) : null;
}

/** The projects an operation names (one or a list), which must exist. */
function namedProjects(value: unknown): string[] {
  const names = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return names.flatMap((name) => {
    const parsed = projectNameSchema.safeParse(name);
    return parsed.success ? [parsed.data] : [];
  });
}

const GROUPS: Record<string, string> = {
  principal:
    'people who can be members of projects and hold tokens (runs locally, as the root of trust): add, list',
  project:
    'projects (runs locally, as the root of trust): add, list, status, add-member, remove-member',
  token: 'tokens for mem serve and mem mcp (the secret is shown once): mint, list, revoke',
  items:
    'curated rules, facts, tasks, threads and reminders: add, read, find, open, log, resolve, update, confirm, relate, pin, unpin, attention, delete',
  review:
    'review findings (resurfacing, contradiction, duplicate, stale grounding, orphaned knowledge): scan, list, keep, dismiss, supersede',
  skill: 'skills drawn from memory notes: draft, promote (agents load it), retire',
  vault:
    "the Obsidian vault (a person's edits of L1/L2 notes captured as events, once or on every save): capture, watch",
  ref: 'reference corpora (documentation trees read into R passages): add, sync, list, rm',
};

function groupCommand(parent: Command, name: string): Command {
  return (
    parent.commands.find((c) => c.name() === name) ??
    parent.command(name).description(GROUPS[name] ?? `${name} commands`)
  );
}

/**
 * The CLI projection of the registry: one command per operation that declares one (`mem
 * token mint`, `mem project add-member`, ...), its positional arguments and flags bound to
 * input fields. Each runs as the local root of trust, through the same registry path as HTTP
 * and MCP: the same validation and errors.
 */
export function registerRegistryCommands(
  program: Command,
  io: CliIO,
  operations: readonly AnyOperation[],
  openRegistry: RegistryOpener = openCliRegistry,
): void {
  for (const op of operations) {
    const cli = op.cli;
    if (!cli) continue;
    const path = [...cli.command];
    const leaf = path.pop()!;
    let parent = program;
    for (const name of path) parent = groupCommand(parent, name);
    const command = parent.command(leaf).description(op.summary);
    const args = cli.args ?? [];
    args.forEach((arg, i) =>
      command.argument(
        cli.variadic && i === args.length - 1
          ? `<${arg}...>`
          : cli.optionalArgs?.includes(arg)
            ? `[${arg}]`
            : `<${arg}>`,
      ),
    );
    for (const option of cli.options ?? []) {
      if (option.repeatable)
        command.option(
          option.flag,
          option.description,
          (value: string, previous: string[] = []) => [...previous, value],
        );
      else if (option.required) command.requiredOption(option.flag, option.description);
      else command.option(option.flag, option.description);
    }
    command.option('--json', 'print the result as JSON');
    command.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      const options = self.opts<Record<string, string | string[] | boolean | undefined>>();
      const input: Record<string, unknown> = {};
      const terms: CliTerms = {
        options: cli.options ?? [],
        args: cli.args ?? [],
        lines: new Map(),
      };
      (cli.args ?? []).forEach((field, i) => {
        if (params[i] !== undefined) input[field] = params[i];
      });
      // A file or stdin refused (missing, empty) is said as the flag that named it, like a field.
      const fileText = (field: string, path: string) =>
        readInputFile(io, field, path).catch((error: unknown) => {
          throw usageError(terms, error);
        });
      for (const field of cli.files ?? [])
        if (typeof input[field] === 'string') input[field] = await fileText(field, input[field]);
      for (const option of cli.options ?? []) {
        const key = self.options.find((o) => o.flags === option.flag)?.attributeName();
        const value = key !== undefined ? options[key] : undefined;
        if (option.parse === 'boolean' && value === true) input[option.field] = true;
        else if (option.parse === 'text-file' && typeof value === 'string')
          input[option.field] = await fileText(option.field, value);
        else if (
          option.parse === 'jsonl-file' &&
          (typeof value === 'string' || Array.isArray(value))
        ) {
          const { objects, lines } = readJsonlFile(io.cwd, option, value);
          input[option.field] = objects;
          terms.lines.set(option.field, lines);
        } else if (typeof value === 'string' || Array.isArray(value))
          input[option.field] = parseOption(option, value);
      }
      try {
        // Bad input is a usage error before anything is looked at or opened; invoke checks it again, with the same schema.
        validateInput(op.input, input, op.name);
      } catch (error) {
        throw usageError(terms, error);
      }
      // A reading operation on a root or project that does not exist is a typo, never an empty
      // answer; so is a write naming one, unless it may be the project's first (startsProject).
      const named = [...namedProjects(input['project']), ...namedProjects(input['projects'])];
      const existing = op.kind === 'read' ? { projects: named } : undefined;
      const writesTo =
        op.kind === 'write' && !op.startsProject && named.length > 0
          ? { projects: named }
          : undefined;
      const opened = await openRegistry(io, self.optsWithGlobals<GlobalOptions>(), {
        runJobs: false,
        reads: op.reads ?? 'stores',
        oneShot: true,
        ...(op.vectorsLater ? { vectorsLater: true } : {}),
        ...(existing ? { existing } : {}),
        ...(writesTo ? { writesTo } : {}),
      });
      try {
        // A query whose vector side is held elsewhere says so in its answer (and its warning
        // line): the note would say it a second time.
        if (opened.vectorNote && !(opened.vectorsHeld && op.name === 'query'))
          io.stderr.write(`mem: note: ${opened.vectorNote}\n`);
        // A write that may start a project (startsProject) names the one it starts, so a typo in
        // --project is seen (it is not refused: a project starts with its first write).
        const starting =
          op.kind === 'write' && op.startsProject
            ? await newProjects(opened.registry.context.engine, named)
            : [];
        const progress = cli.progress ? new ProgressLine(io.stderr) : undefined;
        let output: unknown;
        try {
          output = await opened.registry.invoke(
            op.name,
            opened.registry.local(localPrincipal()),
            input,
            progress ? { progress: (line) => progress.update(line) } : {},
          );
        } finally {
          progress?.done();
        }
        for (const warning of cli.warnings?.(output) ?? [])
          io.stderr.write(`mem: ${terminalSafe(warning)}\n`);
        // Said when the root has other projects (a typo is possible); a root's first project is
        // the expected start, and only --json's new_project says it.
        for (const started of starting)
          if (started.known.length > 0) io.stderr.write(`mem: ${newProjectLine(started)}\n`);
        if (options['json']) {
          const json = cli.json ? cli.json(output) : output;
          const object = typeof json === 'object' && json !== null && !Array.isArray(json);
          writeJson(
            io.stdout,
            starting.length > 0 && object ? { ...json, new_project: true } : json,
          );
        } else {
          // Stored text (old logs, transcript lines, untrusted writers) shows its control and bidi
          // characters as escapes, never acted on by the terminal: every text printer ends here.
          for (const note of cli.notes?.(output) ?? []) writeLine(io.stderr, terminalSafe(note));
          writeLine(io.stdout, terminalSafe(cli.text(output)));
        }
        if (cli.failed?.(output)) throw new VerificationFailed(`${cli.command.join(' ')} failed`);
        const failure = cli.failure?.(output);
        if (failure) throw failure;
      } catch (error) {
        throw usageError(terms, error);
      } finally {
        await opened.close();
      }
    });
  }
}
