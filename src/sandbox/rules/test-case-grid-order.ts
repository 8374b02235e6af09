// test-case-grid-order: the test cases of a test set list in grid order, by position (the spec's listTestCases:
// "in grid order", "ordered by position"), not in the order they were made.
import { listAction } from '../engine/actions.js';
import type { Rule } from '../engine/hooks.js';

export const testCaseGridOrder: Rule = {
  handle: (ctx) => listAction(ctx, 'position'),
};
