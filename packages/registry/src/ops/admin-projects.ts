import { z } from 'zod';
import { MemError } from '@mem/core';
import { defineOperation } from '../operation.js';
import { principalInput, projectInput } from './schemas.js';
import { writeSystem } from './system-log.js';

const TOOL = 'manage_projects';

/** Registers a project for sharing: only registered projects have members. Admin. */
export const projectAdd = defineOperation({
  name: 'project_add',
  summary: 'register a project so principals can be made members of it',
  input: z.strictObject({ name: projectInput }),
  output: z.object({ name: z.string() }),
  kind: 'write',
  idempotent: false,
  auth: { access: 'admin' },
  reads: 'control',
  http: { method: 'POST', path: '/memory/projects', status: 201 },
  mcp: {
    tool: TOOL,
    select: { field: 'action', value: 'add' },
    description:
      'Register projects (add) and manage their members (add_member, remove_member). Admin.',
  },
  cli: { command: ['project', 'add'], args: ['name'], text: (out) => `added project ${out.name}` },
  run: async (ctx, caller, input) =>
    writeSystem(ctx, caller, ({ control }) => {
      if (control.registeredProject(input.name))
        throw new MemError('CONFLICT', `project ${input.name} already exists`, {
          field: 'name',
          project: input.name,
        });
      return {
        payloads: [{ type: 'project_added', name: input.name }],
        result: { name: input.name },
      };
    }),
});

const membership = z.strictObject({ project: projectInput, principal: principalInput });
const membershipOut = z.object({
  project: z.string(),
  principal: z.string(),
  changed: z.boolean(),
});

/** Makes a principal a member of a project; already a member changes nothing. Admin. */
export const memberAdd = defineOperation({
  name: 'member_add',
  summary: 'make a principal a member of a project',
  input: membership,
  output: membershipOut,
  kind: 'write',
  idempotent: true,
  auth: { access: 'admin' },
  reads: 'control',
  http: { method: 'POST', path: '/memory/projects/{project}/members' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'add_member' } },
  cli: {
    command: ['project', 'add-member'],
    args: ['project', 'principal'],
    text: (out) =>
      out.changed
        ? `${out.principal} is now a member of ${out.project}`
        : `${out.principal} was already a member of ${out.project}`,
  },
  run: async (ctx, caller, input) =>
    writeSystem(ctx, caller, ({ control }) => {
      requireParties(control, input);
      const member = control.membershipsOf(input.principal).includes(input.project);
      return {
        payloads: member
          ? []
          : [{ type: 'member_added', project_name: input.project, principal: input.principal }],
        result: { project: input.project, principal: input.principal, changed: !member },
      };
    }),
});

/**
 * Removes a principal from a project: every token of theirs loses the project on its next
 * request, with no revocation sweep. Not a member changes nothing. Admin.
 */
export const memberRemove = defineOperation({
  name: 'member_remove',
  summary: 'remove a principal from a project (their tokens lose it on the next request)',
  input: membership,
  output: membershipOut,
  kind: 'write',
  idempotent: true,
  destructive: true,
  auth: { access: 'admin' },
  reads: 'control',
  http: { method: 'DELETE', path: '/memory/projects/{project}/members/{principal}' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'remove_member' } },
  cli: {
    command: ['project', 'remove-member'],
    args: ['project', 'principal'],
    text: (out) =>
      out.changed
        ? `${out.principal} is no longer a member of ${out.project}`
        : `${out.principal} was not a member of ${out.project}`,
  },
  run: async (ctx, caller, input) =>
    writeSystem(ctx, caller, ({ control }) => {
      // An unknown project or principal is a typo, never "was not a member" (exit 0).
      requireParties(control, input);
      const member = control.membershipsOf(input.principal).includes(input.project);
      return {
        payloads: member
          ? [{ type: 'member_removed', project_name: input.project, principal: input.principal }]
          : [],
        result: { project: input.project, principal: input.principal, changed: member },
      };
    }),
});

/** NOT_FOUND naming the membership's project (unregistered) or principal (never added). */
function requireParties(
  control: { registeredProject(name: string): unknown; principal(name: string): unknown },
  input: { project: string; principal: string },
): void {
  if (!control.registeredProject(input.project))
    throw new MemError(
      'NOT_FOUND',
      `project ${input.project} is not registered: register it first (mem project add ${input.project})`,
      { field: 'project', project: input.project },
    );
  if (!control.principal(input.principal))
    throw new MemError(
      'NOT_FOUND',
      `no principal ${input.principal}: add it first (mem principal add ${input.principal})`,
      { field: 'principal', principal: input.principal },
    );
}
