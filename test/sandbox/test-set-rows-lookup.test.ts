// A test-case write reads its own test set's rows (the grid snapshot), looked up by the set, not every test case
// of the organization (issue 29: createTestCase rose from 9 to 109 ms with 750 cases in another set).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsDecoded } from '../../src/sandbox/storage/decode-count.js';
import { startHarness, type Harness } from '../support/sandbox.js';

const ELSEWHERE = 600;
let h: Harness;
let small: string;
beforeAll(async () => {
  h = await startHarness();
  small = (await h.client.testSets.createTestSet({ display_name: 'Small' })).test_set.id;
  const big = (await h.client.testSets.createTestSet({ display_name: 'Big' })).test_set.id;
  for (let start = 0; start < ELSEWHERE; start += 200) {
    const batch = Array.from({ length: 200 }, (_, i) => ({ kind: 'test_case', data: { test_set_id: big, input_str: `case ${start + i}`, position: start + i } }));
    await h.control.loadFixtures(h.sandbox.organizationId, batch);
  }
  for (const input_str of ['a', 'b']) await h.client.testCases.createTestCase({ test_set_id: small, input_str });
}, 120_000);
afterAll(async () => h.close());

describe('test-case writes', () => {
  it(`decode the set's own rows, not the ${ELSEWHERE} cases of another set`, async () => {
    const before = recordsDecoded();
    const { test_case } = await h.client.testCases.createTestCase({ test_set_id: small, input_str: 'c' });
    expect(recordsDecoded() - before).toBeLessThan(40);
    const afterCreate = recordsDecoded();
    await h.client.testCases.deleteTestCase(test_case.id);
    expect(recordsDecoded() - afterCreate).toBeLessThan(40);
    // The grid is still the set's own, in order.
    const records = (await h.client.testSets.listTestSetRecords(small)).records;
    expect(records.map((r) => r.input)).toEqual(['a', 'b']);
  });

  it(`a list of one set's cases (the test_set_id filter) decodes that set's rows, not the ${ELSEWHERE} of another`, async () => {
    const before = recordsDecoded();
    const { test_cases } = await h.client.testCases.listTestCases({ query: { test_set_id: small } });
    expect(recordsDecoded() - before).toBeLessThan(40);
    expect(test_cases.map((c) => c.input_str)).toEqual(['a', 'b']);
  });
});
