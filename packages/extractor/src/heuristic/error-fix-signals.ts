import type { ChunkRecord } from '../controller.js';
import { isChatter } from './chatter.js';
import { cuesIn } from './cues.js';
import { callInput, callKey, editedFile } from './run-signals.js';
import type { Signal } from './summary-signals.js';
import { sentences } from './text.js';

/*
 * A failing run followed by a passing run of the same command or file is a bug with its
 * symptom and fix. The pass is often in a later chunk than the failure (an agent reads, edits
 * and reruns for several records), so the failures still open at a chunk's end are handed to
 * the next chunk of the same transcript.
 */

const FAILING =
  /\b(?:error|failed|failure|exception|traceback|panic|fatal|exit (?:code|status) [1-9]\d*|non-zero exit|\d+ failures?)\b/i;
const NO_FAILURE = /\b0 (?:failures|errors|failed)\b/i;
// A rejected tool use is the user saying no, not a failure of the command.
const REJECTED = /the user doesn't want to proceed with this tool use/i;
const SYMPTOM_CHARS = 200;

// Sources render a result as `<tool> result:` or `<tool> error:` (the harness's own flag): a
// file read that merely contains the word "error" is no failure.
const HEADER = /^\S+ (error|result):/;
const FAILED_RUN =
  /\bexit(?:ed)?(?: with)? (?:code|status) [1-9]\d*|\b[1-9]\d* (?:failed|failures?)\b|\btraceback\b/i;
// The line a reader of a failure looks for: a compiler diagnostic, a thrown error, a failed test.
const DIAGNOSTIC =
  /\berror\s+[A-Z]{1,4}\d{2,5}\b|\b[A-Z]\w*(?:Error|Exception)\b[:(]|^\s*(?:FAIL|FAILED|ERROR)\b|\bpanic:|\bassert\w*\b.*\bfail/;
/**
 * A line that says what was refused and why ("! [rejected] HEAD -> main (non-fast-forward)",
 * "Permission denied (publickey)"): the reason a tool prints before its summary ("error: failed
 * to push some refs"), which names none.
 */
const REFUSAL = /\[(?:remote )?rejected\]|(?<![\w/.-])(?:rejected|denied|refused)(?![\w/.-])/iu;
/** A passing test's line (mocha's "✓ returns 401 when the token is rejected", TAP's "ok 1"). */
const PASSED_LINE = /^(?:[✓✔√]|ok\b|PASS(?:ED)?\b)/u;
// Tool chatter printed before the failure: a package manager's or runtime's warning.
const WARNING = /^(?:npm |yarn |pnpm )?warn(?:ing)?\b/i;
const EDITS_NAMED = 3;
// A failure never rerun stays open only so long: a long session must not carry every failure.
const OPEN_KEPT = 16;

/** A failure not yet followed by a pass: its symptom and what happened after it. */
export interface OpenFailure {
  symptom: string;
  /** The agent's words since the failure. */
  prose: string[];
  /** The tool whose call failed: its pass is the rerun. */
  tool: string;
  /** Files edited since the failure, in order, once each. */
  edits: string[];
  /** Other tools that ran on the same command or file since the failure, once each. */
  steps: string[];
  /** Other shell commands run since the failure, in order, once each. */
  commands: string[];
  /** Whether the failure is a compiler diagnostic, a thrown error or a failed test. */
  diagnostic: boolean;
  /** The failing output (its head), to tell which edited files it names. */
  output: string;
}

const OUTPUT_KEPT = 4000;

/**
 * The edits that fixed a failure. Trigger: files edited between a failure and its pass. Why: an
 * edit answers a diagnostic or an output naming the file; beside a failure that names neither
 * (a push refused by the remote) it was other work. Outcome: those edits, else none.
 */
function fixingEdits(failure: OpenFailure): string[] {
  if (failure.diagnostic) return failure.edits;
  return failure.edits.filter((file) => failure.output.includes(file.split('/').at(-1)!));
}

/**
 * The commands that mended a failure: those run between it and its pass that the failing output
 * names in quotes as what to run ("hint: … use 'git pull' before pushing again", "Run `npm
 * install` first"). Trigger: a push the remote refused as non-fast-forward, mended by `git pull
 * --rebase`, with no word said and no file the output names edited, got no line. Why: a tool's
 * own hint names the command that answers it, as a diagnostic names the file an edit answers;
 * the reads and builds run between (`cat`, `git status`, `npm run build`) are hinted by no
 * output. Outcome: those commands, as run.
 */
function fixingCommands(failure: OpenFailure): string[] {
  const hinted = hintedCommands(failure.output);
  if (hinted.length === 0) return [];
  return failure.commands.filter((command) => {
    const last = lastStep(command);
    return hinted.some((hint) => last === hint || last.startsWith(`${hint} `));
  });
}

/** The last step of a shell command line (`cd repo && git push` runs `git push`). */
function lastStep(command: string): string {
  return command
    .split(/&&|;|\|\|/u)
    .at(-1)!
    .trim();
}

/**
 * The commands a failing output advises: one quoted after a word of advice ("Use 'git pull'
 * before pushing again", "Run `npm install` first", "did you mean 'git status'?", "Please update
 * your lock file with `npm install` before continuing."), or one on an
 * indented line of its own after a line that ends advising ("…, use" then "    git push
 * --set-upstream origin x", as git prints it). Not advice: a command the error quotes as what
 * failed ("CalledProcessError: Command 'npm run build' returned non-zero exit status 1",
 * "'make check' failed"), and git status's parenthesised advice ("(use \"git add\" to track)"),
 * which says what the tree holds.
 */
function hintedCommands(output: string): string[] {
  const advice = output.replace(GIT_ADVICE, '');
  const out = [...advice.matchAll(HINTED)].map((match) => match[1]!);
  let before = '';
  for (const line of advice.split('\n')) {
    if (line.trim() === '') continue;
    const indented = INDENTED_COMMAND.exec(line);
    if (indented !== null && ADVISES.test(before)) out.push(indented[1]!);
    before = line.length > ADVICE_LINE ? '' : line;
  }
  return out;
}

/** git status's parenthesised advice on one line: "(use \"git restore <file>...\" to discard …)". */
const GIT_ADVICE = /\(use [^()\n]*\)/gu;
/**
 * A command quoted in a tool's output after a word of advice at most 30 characters before it: a
 * program and one to four words. Advice: "use", "run", "try", "did you mean", and the command
 * as the means ("update your lock file with `npm install`", "using 'pip install -e .'"). Not
 * advice: the run that failed ("failed to run 'npm run build' (exit status 1)", "unable to run
 * '…'", "Command failed with \"exit code 1\""). Bounded: each look-behind is a fixed few words.
 */
const HINTED =
  /(?<!\b(?:failed|unable|could not|couldn't|cannot|can't|error|errored|while trying) to )\b(?:use|using|run|running|try|type|execute|mean|(?<!\b(?:failed|exited|errored|crashed|aborted|error|fails|exits) )with|via)\b[^'`"\n]{0,30}?['`"]([a-z][\w.-]{0,30}(?: [\w.:@/=-]{1,40}){1,4})['`"]/giu;
/** A line that ends advising what to run ("…, use", "Try running:"). */
const ADVISES = /\b(?:use|run|running|try|type|execute)[:,]?\s*$/iu;
/** Past this a line is output, not one sentence of advice. */
const ADVICE_LINE = 300;
/** An indented line holding only a command: a program and one to six words. Bounded. */
const INDENTED_COMMAND = /^(?:\t| {2,12})([a-z][\w.-]{0,30}(?: [\w.:@/=-]{1,60}){1,6})\s*$/u;

/**
 * The open failure a passing run mends by being the working form its output advised: the failed
 * command's last step extended ("git push" failed with "no upstream branch … use" and "    git
 * push --set-upstream origin x", and that command passed). Trigger: a pass of another command
 * than the one that failed, so no rerun of the failed one pairs. Why: the working form is what
 * the tool-failures question asks for, and an agent who ran it seldom reruns the plain form.
 * Outcome: that failure's key, or undefined.
 */
function mendedByAdvice(
  open: ReadonlyMap<string, OpenFailure>,
  key: string,
  tool: string,
): string | undefined {
  const ran = lastStep(key);
  for (const [failedKey, failure] of open) {
    if (failure.tool !== tool || !ran.startsWith(`${lastStep(failedKey)} `)) continue;
    const spelled = longOptions(ran);
    if (hintedCommands(failure.output).some((hint) => longOptions(hint) === spelled))
      return failedKey;
  }
  return undefined;
}

/**
 * Short options git documents as the same as a long one (git-push(1): "-u, --set-upstream";
 * git-pull(1): "-r, --rebase"; git-branch(1): "-u <upstream>, --set-upstream-to=<upstream>"),
 * per subcommand. Trigger: git advises "git push --set-upstream origin x" and the agent runs
 * "git push -u origin x". Why: the same command in another spelling; compared as printed, the
 * working form the tool-failures question asks for was lost. Outcome: both sides are compared
 * with these options spelled long. Only this table: an option of another program is compared as
 * written (its short forms mean different things from tool to tool).
 */
const GIT_SHORT_OPTIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  push: { '-u': '--set-upstream', '-f': '--force', '-n': '--dry-run', '-q': '--quiet' },
  pull: { '-r': '--rebase', '-q': '--quiet' },
  fetch: { '-p': '--prune', '-q': '--quiet' },
  branch: { '-u': '--set-upstream-to' },
};

/** A command with git's documented short options spelled long; any other command as it is. */
function longOptions(command: string): string {
  const words = command.trim().split(/\s+/u);
  const table = words[0] === 'git' ? GIT_SHORT_OPTIONS[words[1] ?? ''] : undefined;
  if (table === undefined) return words.join(' ');
  return words.map((word, i) => (i >= 2 ? (table[word] ?? word) : word)).join(' ');
}

/** The shell command a tool call runs, or undefined for a call that runs none. */
function commandOf(call: string): string | undefined {
  const command = callInput(call)?.command ?? callInput(call)?.cmd;
  return typeof command === 'string' && command.trim() !== '' ? command.trim() : undefined;
}

/** Whether a tool result reports a failure (the harness's error flag, a non-zero exit, a trace). */
export function failed(result: string): boolean {
  if (REJECTED.test(result)) return false;
  const header = HEADER.exec(result);
  if (header?.[1] === 'error') return true;
  if (header?.[1] === 'result') return FAILED_RUN.test(result);
  return FAILING.test(result) && !NO_FAILURE.test(result);
}

/** The line of a failing result that says what went wrong, or undefined when none does. */
export function symptomOf(result: string): string | undefined {
  const lines = result
    .replace(HEADER, '')
    .replace(/<\/?[a-z_]+>/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !WARNING.test(l));
  const line =
    lines.find((l) => DIAGNOSTIC.test(l)) ??
    lines.find((l) => REFUSAL.test(l) && !PASSED_LINE.test(l) && l.length > 8) ??
    lines.find((l) => FAILING.test(l) && l.length > 8) ??
    lines[0];
  // Trigger: a failure that prints only a word ("Error"). Outcome: no line; it names no bug.
  if (line === undefined || line.length <= 8) return undefined;
  return line.length > SYMPTOM_CHARS ? `${line.slice(0, SYMPTOM_CHARS).trimEnd()}…` : line;
}

// What an agent says when it states the change it made or the thing that was wrong.
const FIX_VERB =
  /\b(?:added|changed|replaced|removed|renamed|moved|set|lacked|was missing|was wrong)\b/i;

/** The fix the agent stated between the failing and the passing run: its best cause/fix sentence. */
function fixBetween(prose: readonly string[]): string | undefined {
  const said = prose.flatMap((text) => sentences(text)).filter((s) => !isChatter(s));
  return said.find((s) => cuesIn(s).some((c) => c.family === 'cause') || FIX_VERB.test(s));
}

/** What a transcript's chunks hand on: failures not yet rerun, and the symptoms already a line. */
export interface ErrorFixCarry {
  open: ReadonlyMap<string, OpenFailure>;
  said: ReadonlySet<string>;
}

const NOTHING_CARRIED: ErrorFixCarry = { open: new Map(), said: new Set() };

/** The latest failure a carry holds still open: its command and symptom. */
export function latestOpenFailure(
  carry: ErrorFixCarry | undefined,
): { command: string; symptom: string } | undefined {
  const last = carry === undefined ? undefined : [...carry.open].at(-1);
  return last === undefined ? undefined : { command: last[0], symptom: last[1].symptom };
}

/** The tool a call rendered as `<name> {json}` names. */
function toolOf(call: string): string {
  return /^\S+/.exec(call.trim())?.[0] ?? '';
}

/**
 * One bug line per command that failed and later passed with a fix visible between (the
 * agent's stated cause or change, the files it edited, another tool run first on the same
 * file), once per symptom in a transcript, and what the next chunk inherits. `carried` is what
 * the previous chunk of the same transcript handed on; it is not changed.
 */
export function errorFixSignals(
  records: readonly ChunkRecord[],
  carried: ErrorFixCarry = NOTHING_CARRIED,
): { signals: Signal[]; carry: ErrorFixCarry } {
  const signals: Signal[] = [];
  const pending: { key: string; tool: string }[] = [];
  const said = new Set(carried.said);
  const open = new Map(
    [...carried.open].map(([key, f]) => [
      key,
      {
        ...f,
        prose: [...f.prose],
        edits: [...f.edits],
        steps: [...f.steps],
        commands: [...f.commands],
      },
    ]),
  );
  for (const record of records) {
    if (record.role === 'tool_call') {
      const key = callKey(record.text);
      pending.push({ key, tool: toolOf(record.text) });
      const file = editedFile(record.text);
      if (file !== undefined)
        for (const [failedKey, failure] of open)
          if (failedKey !== key && !failure.edits.includes(file)) failure.edits.push(file);
      const command = commandOf(record.text);
      if (command !== undefined)
        for (const [failedKey, failure] of open)
          if (failedKey !== key && !failure.commands.includes(command))
            failure.commands.push(command);
    } else if (record.role === 'tool_result') {
      const call = pending.shift();
      if (call === undefined || REJECTED.test(record.text)) continue;
      const { key, tool } = call;
      const failure = open.get(key);
      if (failed(record.text)) {
        const symptom = failure === undefined ? symptomOf(record.text) : undefined;
        if (symptom !== undefined)
          open.set(key, {
            symptom,
            tool,
            prose: [],
            edits: [],
            steps: [],
            commands: [],
            diagnostic: DIAGNOSTIC.test(symptom),
            output: record.text.slice(0, OUTPUT_KEPT),
          });
        if (open.size > OPEN_KEPT) open.delete(open.keys().next().value!);
        continue;
      }
      if (failure === undefined) {
        const mended = mendedByAdvice(open, key, tool);
        const advised = mended === undefined ? undefined : open.get(mended);
        if (advised === undefined) continue;
        open.delete(mended!);
        if (said.has(advised.symptom)) continue;
        said.add(advised.symptom);
        signals.push({
          text: `\`${mended!}\` failed with "${advised.symptom}"; fixed: ran \`${key}\``,
          family: 'cause',
          inferred: true,
        });
        continue;
      }
      // Another tool passing on the failed file (a Read before a refused Edit) is a step of the
      // fix, not the rerun: the failure stays open for the call that failed.
      if (tool !== failure.tool) {
        if (!failure.steps.includes(tool)) failure.steps.push(tool);
        continue;
      }
      open.delete(key);
      // Trigger: a pass with no fix visible between. Why: a retry that happens to pass (a
      // flaky run) is no bug with a cause. Outcome: no line.
      const fixes = [fixBetween(failure.prose)].filter((f) => f !== undefined);
      const edits = fixingEdits(failure);
      if (edits.length > 0) fixes.push(`edited ${edits.slice(0, EDITS_NAMED).join(', ')}`);
      if (failure.steps.length > 0) fixes.push(`${failure.steps.join(', ')} it first`);
      const commands = fixingCommands(failure);
      if (commands.length > 0)
        fixes.push(`ran ${commands.map((c) => `\`${c}\``).join(', ')} first`);
      // The same symptom again (every refused edit of a session) is the same finding.
      if (fixes.length === 0 || said.has(failure.symptom)) continue;
      said.add(failure.symptom);
      signals.push({
        text: `\`${key}\` failed with "${failure.symptom}"; fixed: ${fixes.join('; ')}`,
        family: 'cause',
        inferred: true,
      });
    } else if (record.role === 'assistant')
      for (const failure of open.values()) failure.prose.push(record.text);
  }
  return { signals, carry: { open, said } };
}
