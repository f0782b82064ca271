import { z } from 'zod';
import { MemError } from '@mem/core';
import { defineOperation } from '../operation.js';
import { principalInput } from './schemas.js';
import { writeSystem } from './system-log.js';

/** Adds a principal: a person who can be a member of projects and hold tokens. Admin. */
export const principalAdd = defineOperation({
  name: 'principal_add',
  summary: 'add a principal (a person)',
  input: z.strictObject({ name: principalInput }),
  output: z.object({ name: z.string() }),
  kind: 'write',
  idempotent: false,
  auth: { access: 'admin' },
  reads: 'control',
  http: { method: 'POST', path: '/memory/principals', status: 201 },
  mcp: {
    tool: 'manage_principals',
    select: { field: 'action', value: 'add' },
    description: 'Add or list principals (people). Admin.',
  },
  cli: {
    command: ['principal', 'add'],
    args: ['name'],
    text: (out) => `added principal ${out.name}`,
  },
  run: async (ctx, caller, input) =>
    writeSystem(ctx, caller, ({ control }) => {
      if (control.principal(input.name))
        throw new MemError('CONFLICT', `principal ${input.name} already exists`, {
          field: 'name',
          principal: input.name,
        });
      return {
        payloads: [{ type: 'principal_added', name: input.name }],
        result: { name: input.name },
      };
    }),
});

/** Lists principals with their current projects. Admin. */
export const principalList = defineOperation({
  name: 'principal_list',
  summary: 'list principals and the projects they are members of',
  input: z.strictObject({}),
  output: z.array(
    z.object({ name: z.string(), added_at: z.string(), projects: z.array(z.string()) }),
  ),
  kind: 'read',
  idempotent: true,
  auth: { access: 'admin' },
  reads: 'control',
  http: { method: 'GET', path: '/memory/principals' },
  mcp: { tool: 'manage_principals', select: { field: 'action', value: 'list' } },
  cli: {
    command: ['principal', 'list'],
    text: (out) =>
      out.length === 0
        ? 'no principals'
        : out.map((p) => `${p.name}\t${p.projects.join(',') || '-'}`).join('\n'),
  },
  run: async (ctx) => {
    const { control } = await ctx.stores.fresh();
    return control.principals().map((p) => ({
      name: p.name,
      added_at: p.added_ts,
      projects: control.membershipsOf(p.name),
    }));
  },
});
