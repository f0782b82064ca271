// Vitest setup file of the `int` project: every new embedded projection this test file opens,
// in process or in a child that inherits process.env, copies the run's PGlite template.
import { inject } from 'vitest';

process.env['MEM_TEST_PGLITE_TEMPLATE'] = inject('pgliteTemplate');
