import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord, Controller } from '../controller.js';
import { heuristicController } from './controller.js';
import { errorFixSignals, symptomOf } from './error-fix-signals.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const BUGS = 'What bugs or failures were found, what was the root cause, and how were they fixed?';
const DECISIONS =
  'What architectural decisions were made, with reasoning and rejected alternatives?';

async function answer(
  controller: Controller,
  question: string,
  records: ChunkRecord[],
  source: string,
): Promise<string[]> {
  const reply = await controller.answer({
    level: 'L1',
    question,
    memory: '',
    chunk: { text: records.map((r) => r.text).join('\n'), records, source },
    memoryBudget: 300,
  });
  const parsed = parseGateAnswer(reply.text);
  return parsed.update ? parsed.memory.split('\n') : [];
}

const typecheck = 'Bash {"command":"cd web && npx tsc --noEmit"}';
const failing: ChunkRecord[] = [
  { role: 'tool_call', text: typecheck },
  {
    role: 'tool_result',
    text: [
      'Bash error:',
      'npm warn config "legacy-peer" will stop working in the next major version.',
      "src/store/cart.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    ].join('\n'),
  },
];
const passing: ChunkRecord[] = [
  {
    role: 'tool_call',
    text: 'Edit {"file_path":"web/src/store/cart.ts","old_string":"a","new_string":"b"}',
  },
  { role: 'tool_result', text: 'Edit result:\nThe file web/src/store/cart.ts has been updated.' },
  { role: 'tool_call', text: typecheck },
  { role: 'tool_result', text: 'Bash result:\nnpm warn config "legacy-peer" will stop working.' },
];

describe('error → fix from tool results', () => {
  it('pairs a failing run with the passing rerun in the next chunk of the same transcript', async () => {
    const controller = heuristicController(words);
    await answer(controller, BUGS, failing, 'claude:a');
    const bugs = await answer(controller, BUGS, passing, 'claude:a');
    const line = bugs.find((l) => l.includes('npx tsc --noEmit'));
    expect(line).toBeDefined();
    expect(line).toContain('error TS2322');
    expect(line).toContain('web/src/store/cart.ts');
  });

  it('reads the same pair for every question asked of the chunk (one controller, many queries)', async () => {
    const controller = heuristicController(words);
    await answer(controller, DECISIONS, failing, 'claude:a');
    await answer(controller, BUGS, failing, 'claude:a');
    await answer(controller, DECISIONS, passing, 'claude:a');
    const bugs = await answer(controller, BUGS, passing, 'claude:a');
    expect(bugs.some((l) => l.includes('error TS2322'))).toBe(true);
  });

  it('never pairs a failure of one transcript with a pass in another', async () => {
    const controller = heuristicController(words);
    await answer(controller, BUGS, failing, 'claude:a');
    const bugs = await answer(controller, BUGS, passing, 'claude:b');
    expect(bugs.some((l) => l.includes('error TS2322'))).toBe(false);
  });

  it('keeps the edit between a failure and its pass as the fix within one chunk', async () => {
    const bugs = await answer(heuristicController(words), BUGS, [...failing, ...passing], 'x');
    const line = bugs.find((l) => l.includes('error TS2322'));
    expect(line).toContain('edited web/src/store/cart.ts');
  });

  it('names no unrelated edit as the fix of a failure that names neither the file nor a diagnostic', async () => {
    const push = 'Bash {"command":"git push origin main"}';
    const bugs = await answer(
      heuristicController(words),
      BUGS,
      [
        { role: 'tool_call', text: push },
        { role: 'tool_result', text: 'Bash error:\nerror: failed to push some refs to origin' },
        {
          role: 'tool_call',
          text: 'Edit {"file_path":"docs/NOTES.md","old_string":"a","new_string":"b"}',
        },
        { role: 'tool_result', text: 'Edit result:\nThe file docs/NOTES.md has been updated.' },
        { role: 'tool_call', text: push },
        { role: 'tool_result', text: 'Bash result:\nmain -> main' },
      ],
      'x',
    );
    expect(bugs.some((l) => l.includes('failed to push'))).toBe(false);
  });

  it('takes no passing test title nor a path that holds "denied" as the refusal', () => {
    // A reviewer's inputs: mocha prints the passing titles above the failure; eslint the path.
    expect(
      symptomOf(
        'Bash error:\n  auth\n    ✓ returns 401 when the token is rejected\n    1) refreshes the session\n\n  1 passing (12ms)\n  1 failing',
      ),
    ).toBeUndefined();
    expect(
      symptomOf(
        "Bash error:\n/repo/src/permissions/denied-page.tsx\n  12:5  error  'x' is defined but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)",
      ),
    ).not.toContain('denied-page');
    expect(symptomOf('Bash error:\nbuilding\nPermission denied (publickey).')).toBe(
      'Permission denied (publickey).',
    );
  });

  describe('a command the failing output hints at, run before the pass', () => {
    const push = 'Bash {"command":"cd repo && git push origin main"}';
    const refused: ChunkRecord[] = [
      { role: 'tool_call', text: push },
      {
        role: 'tool_result',
        text: [
          'Bash error:',
          'To example.org:team/repo.git',
          ' ! [rejected]        main -> main (fetch first)',
          "error: failed to push some refs to 'example.org:team/repo.git'",
          "hint: Updates were rejected because the remote contains work that you do not have. Use 'git pull' before pushing again.",
        ].join('\n'),
      },
    ];
    const run = (command: string, result: string): ChunkRecord[] => [
      { role: 'tool_call', text: `Bash {"command":${JSON.stringify(command)}}` },
      { role: 'tool_result', text: `Bash result:\n${result}` },
    ];
    const pass = run('cd repo && git push origin main', 'main -> main');

    it('is the fix, and the refusal is the symptom', () => {
      const { signals } = errorFixSignals([
        ...refused,
        ...run('cd repo && git status', 'On branch main'),
        ...run('cd repo && git pull --rebase origin main', 'Successfully rebased.'),
        ...pass,
      ]);
      expect(signals.map((s) => s.text)).toEqual([
        '`cd repo && git push origin main` failed with "! [rejected]        main -> main (fetch first)"; fixed: ran `cd repo && git pull --rebase origin main` first',
      ]);
    });

    it('names no command the output does not hint at, nor one it hints at but nobody ran', () => {
      expect(
        errorFixSignals([
          ...refused,
          ...run('cd repo && git status', 'On branch main'),
          ...run('cd repo && git fetch origin', ''),
          ...pass,
        ]).signals,
      ).toEqual([]);
      // git's status advice, "(use \"git add\" to track)", says what the tree holds: a commit
      // of nothing, mended by staging, is no bug (a reviewer's input).
      expect(
        errorFixSignals(
          [...run('git commit -m "feat: add export"', '')].slice(0, 1).concat([
            {
              role: 'tool_result',
              text: 'Bash error:\nOn branch main\nUntracked files:\n  (use "git add <file>..." to include in what will be committed)\n\tsrc/export.ts\n\nnothing added to commit but untracked files present (use "git add" to track)',
            },
            ...run('git add -A', ''),
            ...run('git commit -m "feat: add export"', '[main 1a2b3c4] feat: add export'),
          ]),
        ).signals,
      ).toEqual([]);
      // A build run between a type error and its pass is named by no hint in the output.
      const check = 'Bash {"command":"npm run check"}';
      expect(
        errorFixSignals([
          { role: 'tool_call', text: check },
          {
            role: 'tool_result',
            text: 'Bash error:\n> npm run check --workspaces\nsrc/a.ts(3,5): error TS2322: Type mismatch',
          },
          ...run('cd packages/agent && npm run build', 'built'),
          { role: 'tool_call', text: check },
          { role: 'tool_result', text: 'Bash result:\nok' },
        ]).signals,
      ).toEqual([]);
    });
  });

  describe('advice a failing output gives, and commands it only quotes', () => {
    const run = (command: string, result: string, flag = 'result'): ChunkRecord[] => [
      { role: 'tool_call', text: `Bash {"command":${JSON.stringify(command)}}` },
      { role: 'tool_result', text: `Bash ${flag}:\n${result}` },
    ];
    // git's own wording: the advice is an indented, unquoted line after "…, use".
    const noUpstream = [
      'fatal: The current branch feature/export has no upstream branch.',
      'To push the current branch and set the remote as upstream, use',
      '',
      '    git push --set-upstream origin feature/export',
      '',
      "To have this happen automatically for branches without a tracking upstream, see 'push.autoSetupRemote' in 'git help config'.",
    ].join('\n');

    it('reads git’s indented advice as the working form the agent ran next', () => {
      const { signals } = errorFixSignals([
        ...run('git push', noUpstream, 'error'),
        ...run('git push --set-upstream origin feature/export', 'branch set up to track'),
      ]);
      expect(signals.map((s) => s.text)).toEqual([
        '`git push` failed with "fatal: The current branch feature/export has no upstream branch."; fixed: ran `git push --set-upstream origin feature/export`',
      ]);
      // `-u` is git's own short spelling of `--set-upstream` (git-push(1)): the same advised
      // form, read once; the plain rerun after it shows no further fix.
      const short = errorFixSignals([
        ...run('cd repo && git push', noUpstream, 'error'),
        ...run('cd repo && git push -u origin feature/export', 'ok'),
        ...run('cd repo && git push', 'Everything up-to-date'),
      ]).signals;
      expect(short.map((s) => s.text)).toEqual([
        '`cd repo && git push` failed with "fatal: The current branch feature/export has no upstream branch."; fixed: ran `cd repo && git push -u origin feature/export`',
      ]);
      // A short option git does not document as that long one is another command.
      const other = errorFixSignals([
        ...run('git push', noUpstream, 'error'),
        ...run('git push -v origin feature/export', 'ok'),
      ]).signals;
      expect(other).toEqual([]);
    });

    it.each([
      // An indented line after no advice: output, not a hint.
      ['error: 2 tests failed\n\n    npm run test:unit --watch\n', 'npm run test:unit --watch'],
      // Advice to run something else than the failed command extended.
      [
        'fatal: not a git repository\nTo create one, run\n\n    git init --bare repo\n',
        'git init --bare repo',
      ],
    ])(
      'pairs no pass of a command the output does not advise as the failed run’s form: %s',
      (output, next) => {
        expect(
          errorFixSignals([...run('git push', output, 'error'), ...run(next, 'ok')]).signals,
        ).toEqual([]);
      },
    );

    it('never takes a command an error quotes as what failed for the fix', () => {
      const deploy = [
        'Traceback (most recent call last):',
        '  File "deploy.py", line 12, in <module>',
        "subprocess.CalledProcessError: Command 'npm run build' returned non-zero exit status 1.",
      ].join('\n');
      const { signals } = errorFixSignals([
        ...run('python deploy.py', deploy, 'error'),
        ...run('npm run build', 'built in 2.1s'),
        ...run('python deploy.py', 'deployed'),
      ]);
      expect(signals.some((s) => s.text.includes('ran `npm run build`'))).toBe(false);
      // Advice in the same output still names its command.
      const advised = errorFixSignals([
        ...run(
          'python deploy.py',
          `${deploy}\nhint: run 'npm ci' to restore node_modules`,
          'error',
        ),
        ...run('npm ci', 'added 912 packages'),
        ...run('python deploy.py', 'deployed'),
      ]).signals;
      expect(advised.map((s) => s.text)).toEqual([
        '`python deploy.py` failed with "subprocess.CalledProcessError: Command \'npm run build\' returned non-zero exit status 1."; fixed: ran `npm ci` first',
      ]);
    });

    it('reads a command the output names as the means ("with `npm install`") as advice', () => {
      const eusage = [
        'npm ERR! code EUSAGE',
        'npm ERR!',
        'npm ERR! `npm ci` can only install packages when your package.json and package-lock.json are in sync. Please update your lock file with `npm install` before continuing.',
        'npm ERR!',
        'npm ERR! Missing: left-pad@1.3.0 from lock file',
      ].join('\n');
      const { signals } = errorFixSignals([
        ...run('npm ci', eusage, 'error'),
        ...run('npm install', 'added 912 packages'),
        ...run('npm ci', 'added 912 packages'),
      ]);
      expect(signals.map((s) => s.text)).toEqual([
        '`npm ci` failed with "npm ERR! code EUSAGE"; fixed: ran `npm install` first',
      ]);
    });

    it.each([
      "RuntimeError: failed to run 'npm run build' (exit status 1)",
      "Error: unable to run 'npm run build': No such file or directory",
      'Command failed with "npm run build exited 1"',
    ])('never reads the run an error says failed as advice: %s', (error) => {
      const { signals } = errorFixSignals([
        ...run('python deploy.py', error, 'error'),
        ...run('npm run build', 'built in 2.1s'),
        ...run('python deploy.py', 'deployed'),
      ]);
      expect(signals.some((s) => s.text.includes('ran `npm run build`'))).toBe(false);
    });
  });

  it('turns a refused edit retried after reading the file into one bug line, said once per transcript', async () => {
    const refusedEdit = (file: string): ChunkRecord[] => [
      { role: 'tool_call', text: `Edit {"file_path":"${file}","old_string":"a","new_string":"b"}` },
      {
        role: 'tool_result',
        text: 'Edit error:\n<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
      },
      { role: 'tool_call', text: `Read {"file_path":"${file}"}` },
      { role: 'tool_result', text: `Read result:\n     1→export const x = 1;` },
      { role: 'tool_call', text: `Edit {"file_path":"${file}","old_string":"a","new_string":"b"}` },
      { role: 'tool_result', text: `Edit result:\nThe file ${file} has been updated.` },
    ];
    const controller = heuristicController(words);
    const first = await answer(controller, BUGS, refusedEdit('src/app.tsx'), 'claude:a');
    const line = first.find((l) => l.includes('src/app.tsx'));
    expect(line).toContain('not been read yet');
    expect(line).toContain('Read it first');
    const second = await answer(controller, BUGS, refusedEdit('src/list.tsx'), 'claude:a');
    expect(second.some((l) => l.includes('src/list.tsx'))).toBe(false);
  });

  it('knows the file of an edit whose rendered input was cut off (no whole JSON)', async () => {
    const cut =
      'Edit {"file_path":"src/page.tsx","old_string":"export default function Home() {\\n  ret';
    const bugs = await answer(
      heuristicController(words),
      BUGS,
      [
        { role: 'tool_call', text: cut },
        {
          role: 'tool_result',
          text: 'Edit error:\n<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
        },
        { role: 'tool_call', text: 'Read {"file_path":"src/page.tsx"}' },
        { role: 'tool_result', text: 'Read result:\n     1→export default function Home() {' },
        { role: 'tool_call', text: cut },
        { role: 'tool_result', text: 'Edit result:\nThe file src/page.tsx has been updated.' },
      ],
      'x',
    );
    expect(
      bugs.some((l) => l.startsWith('- `src/page.tsx` failed') && l.includes('Read it first')),
    ).toBe(true);
  });
});
