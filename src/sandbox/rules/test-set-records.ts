// test-set-records (listTestSetRecords): the test set's live test cases as records, in grid order:
// {id, input (the case's input_str), input_type null, expected_behaviors [],
// expected_output (as stored, null when absent), description null, user_notes null, create_time, update_time,
// test_set_id}. The test set must be live and in scope (404 on test_set_id).
//
// Decisions (docs/sandbox.md "Test sets"): test cases carry no input_type, behaviours, description or notes,
// so those are empty; a case's attributes are not mapped onto them.
import type { Rule } from '../engine/hooks.js';
import { findRecord } from '../engine/records.js';
import { liveWithField } from '../storage/store.js';

export const testSetRecords: Rule = {
  handle(ctx) {
    const testSet = findRecord(ctx, 'test_set', ctx.path.test_set_id, { field: 'test_set_id' });
    // The platform's records hold no test case of the organization's test set.
    const cases = liveWithField(ctx.runtime.store, 'test_case', ctx.org, 'test_set_id', testSet.id).sort((a, b) => Number(a.data.position) - Number(b.data.position));
    // input_str, create_time and update_time are required of every test case (the TestCase schema).
    const records = cases.map((c) => ({
      id: c.id,
      input: c.data.input_str,
      input_type: null,
      expected_behaviors: [],
      expected_output: c.data.expected_output ?? null,
      description: null,
      user_notes: null,
      create_time: c.data.create_time,
      update_time: c.data.update_time,
      test_set_id: testSet.id,
    }));
    return { body: { records } };
  },
};
