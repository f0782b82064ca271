import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '@mem/registry';
import { FORWARDED_COMMANDS, forwardPlan } from './forward-plan.js';

/*
 * What the CLI may hand to a running `mem serve` is a read of the projections, never a write:
 * the list is held to the registry's own declarations, so an operation that changes class
 * cannot stay forwarded.
 */
describe('the commands forwarded to the warm socket', () => {
  it.each(FORWARDED_COMMANDS.map((name) => [name]))(
    '%s is a registry read of the projections, without progress',
    (name) => {
      const op = OPERATIONS.find((o) => o.cli?.command.join(' ') === name);
      expect(op, name).toBeDefined();
      expect(op!.kind).toBe('read');
      expect(['stores', 'vectors']).toContain(op!.reads ?? 'stores');
      expect(op!.cli!.progress ?? false).toBe(false);
    },
  );

  it('plans the root from --root, then MEM_ROOT, then the working directory', () => {
    const q = ['query', 'why', '--project', 'demo'];
    expect(forwardPlan(['--root', 'r', ...q], { MEM_ROOT: '/m' }, '/cwd')).toEqual({
      root: '/cwd/r',
      command: 'query',
    });
    expect(forwardPlan([...q, '--root=/r'], {}, '/cwd')?.root).toBe('/r');
    expect(forwardPlan(q, { MEM_ROOT: '/m' }, '/cwd')?.root).toBe('/m');
    expect(forwardPlan(q, {}, '/cwd')?.root).toBe('/cwd');
    expect(forwardPlan(['items', 'find', '--project', 'demo'], {}, '/c')?.command).toBe(
      'items find',
    );
  });

  it.each([
    [['remember', 'text', '--project', 'demo', '--type', 'fact']],
    [['items', 'add', '--file', 'x.jsonl']],
    [['log', 'show', '--project', 'demo']],
    [['serve', '--port', '0']],
    [['signature', '-', '--project', 'demo']],
    [['query', 'why', '--help']],
    [['--version']],
    [['--root', 'a', 'query', 'why', '--root', 'b']],
    [['items', '--project', 'demo', 'find']],
  ])('does not forward %j', (args) => {
    expect(forwardPlan(args, {}, '/cwd')).toBeNull();
  });
});
