// metric-catalog: the platform data a metric is written against, answered as fixed lists.
// - GET /metrics/template-variables -> {version, categories}: the `{{prefix.key}}` variables a prompt can use.
// - GET /models/metric -> {models}: the judge models runtime_config.model_version can name.
//
// Decisions (facts-shapes 3.8 give the shapes, not the data; docs/sandbox.md "Metrics"): the categories are the
// sources a prompt reads in this API (the transcript, the test case, the persona, the agent, the conversation's
// metadata); the models are a small fixed list over the three providers of E20, both tiers.
import type { Rule } from '../engine/hooks.js';

export const TEMPLATE_VARIABLES_VERSION = '1';

export const TEMPLATE_VARIABLE_CATEGORIES = [
  { prefix: 'transcript', display_name: 'Transcript', description: 'The conversation being scored.', source_field: 'transcript', supports_custom_keys: false, example_keys: ['text', 'messages'] },
  { prefix: 'test_case', display_name: 'Test case', description: 'The test case the simulation played.', source_field: 'test_case', supports_custom_keys: true, example_keys: ['input_str', 'expected_output'] },
  { prefix: 'persona', display_name: 'Persona', description: "The simulated caller's settings.", source_field: 'persona', supports_custom_keys: true, example_keys: ['name', 'language_code'] },
  { prefix: 'agent', display_name: 'Agent', description: 'The agent under test.', source_field: 'agent', supports_custom_keys: true, example_keys: ['display_name', 'prompt'] },
  { prefix: 'metadata', display_name: 'Metadata', description: "The conversation's metadata, by key.", source_field: 'metadata', supports_custom_keys: true, example_keys: ['customer_id', 'channel'] },
];

export const METRIC_MODELS = [
  { model_id: 'gpt-4.1', display_name: 'GPT-4.1', provider: 'openai', tier: 'standard', supports_thinking: false },
  { model_id: 'o3', display_name: 'o3', provider: 'openai', tier: 'enterprise', supports_thinking: true },
  { model_id: 'claude-sonnet-4', display_name: 'Claude Sonnet 4', provider: 'anthropic', tier: 'standard', supports_thinking: true },
  { model_id: 'claude-opus-4', display_name: 'Claude Opus 4', provider: 'anthropic', tier: 'enterprise', supports_thinking: true },
  { model_id: 'gemini-2.5-flash', display_name: 'Gemini 2.5 Flash', provider: 'google', tier: 'standard', supports_thinking: true },
  { model_id: 'gemini-2.5-pro', display_name: 'Gemini 2.5 Pro', provider: 'google', tier: 'enterprise', supports_thinking: true },
];

// Named on the two listings: the one whose answer declares `models` gets the models, the other the variables.
export const metricCatalog: Rule = {
  handle(ctx) {
    const shape = ctx.route.success.shape;
    if (shape.kind === 'other' && shape.keys.includes('models')) return { body: { models: METRIC_MODELS.map((m) => ({ ...m })) } };
    return { body: { version: TEMPLATE_VARIABLES_VERSION, categories: TEMPLATE_VARIABLE_CATEGORIES.map((c) => ({ ...c, example_keys: [...c.example_keys] })) } };
  },
};
