// The data frames a SQL metric's sql_query reads: the one definition of the tables (their columns, SQL types and
// enumerations), used alike to build the in-memory database a query runs over (sql-runner.ts), to answer
// GET /metrics/sql-schema (facts-shapes MT28), and for POST /metrics/sql:test's fixed sample (SAMPLE_TRANSCRIPT).
// Every table is built from one conversation's transcript; every row carries start_offset_milliseconds, the
// column a SQL metric's rows are placed in time by (facts 2.17).
import type { TranscriptMessage } from '../contract.js';
import { spokenTurns, textOf, toolArguments, toolName, words } from './transcript.js';

export type SqlType = 'INTEGER' | 'REAL' | 'TEXT';

export interface FrameColumn {
  name: string;
  sql_type: SqlType;
  /** The values a TEXT column can hold, when they are a closed set. */
  enum: { name: string; values: string[] } | null;
  description: string;
}

export interface FrameTable {
  name: string;
  description: string;
  columns: FrameColumn[];
}

export type FrameRow = Record<string, string | number | null>;
export type Frames = Record<string, FrameRow[]>;

const ROLE_ENUM = { name: 'message_role', values: ['user', 'assistant', 'tool', 'system'] };

const col = (name: string, sql_type: SqlType, description: string, values: FrameColumn['enum'] = null): FrameColumn => ({ name, sql_type, enum: values, description });
const offsets = [
  col('start_offset_milliseconds', 'INTEGER', 'When the message started, in milliseconds from the start of the conversation.'),
  col('end_offset_milliseconds', 'INTEGER', 'When the message ended, in milliseconds from the start of the conversation.'),
];

export const FRAME_TABLES: readonly FrameTable[] = [
  {
    name: 'messages',
    description: 'One row per transcript message, in conversation order.',
    columns: [
      col('message_index', 'INTEGER', 'Position of the message in the transcript, from 0.'),
      col('role', 'TEXT', 'user is the simulated persona, assistant the agent, tool a tool message (the persona ending the chat).', ROLE_ENUM),
      col('content', 'TEXT', 'The message text (structured content as JSON text).'),
      ...offsets,
      col('duration_milliseconds', 'INTEGER', 'end_offset_milliseconds - start_offset_milliseconds.'),
      col('word_count', 'INTEGER', 'Number of whitespace-separated words in content.'),
      col('tool_call_count', 'INTEGER', 'Number of tool calls the message carries (agent messages).'),
    ],
  },
  {
    name: 'tool_calls',
    description: 'One row per tool call an agent message carried.',
    columns: [
      col('message_index', 'INTEGER', 'The message that carried the call.'),
      ...offsets,
      col('tool_name', 'TEXT', 'The called function.'),
      col('arguments', 'TEXT', 'The call arguments, as the JSON text the agent sent.'),
    ],
  },
  {
    name: 'agent_turns',
    description: 'One row per agent message, with the latency since the user turn it answers.',
    columns: [
      col('message_index', 'INTEGER', 'Position of the agent message in the transcript.'),
      ...offsets,
      col('latency_milliseconds', 'INTEGER', 'From the end of the preceding user message to the start of this one; NULL when no user message precedes it.'),
      col('word_count', 'INTEGER', 'Number of words of the agent message.'),
    ],
  },
];

/** The rows of every table for one conversation. */
export function framesOf(transcript: readonly TranscriptMessage[]): Frames {
  const messages: FrameRow[] = transcript.map((m, index) => ({
    message_index: index,
    role: m.role,
    content: textOf(m),
    start_offset_milliseconds: Math.round(m.start_offset),
    end_offset_milliseconds: Math.round(m.end_offset),
    duration_milliseconds: Math.round(m.end_offset - m.start_offset),
    word_count: words(textOf(m)),
    tool_call_count: m.tool_calls?.length ?? 0,
  }));
  const tool_calls: FrameRow[] = transcript.flatMap((m, index) =>
    (m.tool_calls ?? []).map((call) => ({
      message_index: index,
      start_offset_milliseconds: Math.round(m.start_offset),
      end_offset_milliseconds: Math.round(m.end_offset),
      tool_name: toolName(call),
      arguments: toolArguments(call),
    })),
  );
  const turns = spokenTurns(transcript);
  const agent_turns: FrameRow[] = turns
    .map((turn, i) => ({ turn, before: turns[i - 1] }))
    .filter(({ turn }) => turn.message.role === 'assistant')
    .map(({ turn, before }) => ({
      message_index: turn.index,
      start_offset_milliseconds: Math.round(turn.message.start_offset),
      end_offset_milliseconds: Math.round(turn.message.end_offset),
      latency_milliseconds: before?.message.role === 'user' ? Math.max(0, Math.round(turn.message.start_offset - before.message.end_offset)) : null,
      word_count: words(textOf(turn.message)),
    }));
  return { messages, tool_calls, agent_turns };
}

const at = (start: number, end: number): Pick<TranscriptMessage, 'start_timestamp' | 'end_timestamp' | 'start_offset' | 'end_offset'> => ({
  start_timestamp: String(1767225600 + start / 1000),
  end_timestamp: String(1767225600 + end / 1000),
  start_offset: start,
  end_offset: end,
});

/** The fixed sample conversation POST /metrics/sql:test runs over (not the organization's data, facts 2.17). */
export const SAMPLE_TRANSCRIPT: readonly TranscriptMessage[] = [
  { role: 'user', content: 'Hi, I would like to change the delivery address of my order 4471.', ...at(0, 3200) },
  {
    role: 'assistant',
    content: 'Sure, let me look up order 4471.',
    ...at(4100, 5600),
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"4471"}' } }],
  },
  { role: 'assistant', content: 'I found it. What is the new address?', ...at(7300, 8900) },
  { role: 'user', content: '12 Harbour Street, Leith.', ...at(10400, 12100) },
  {
    role: 'assistant',
    content: 'Done: order 4471 now ships to 12 Harbour Street, Leith. Anything else?',
    ...at(13300, 16800),
    tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'update_address', arguments: '{"order_id":"4471","address":"12 Harbour Street, Leith"}' } }],
  },
  { role: 'user', content: 'No, thank you!', ...at(18900, 19800) },
  { role: 'assistant', content: 'You are welcome. Goodbye!', ...at(20600, 21900) },
  { role: 'tool', content: 'end_conversation', name: 'end_conversation', ...at(22400, 22400) },
];

/** How many rows of each table GET /metrics/sql-schema shows as sample_rows. */
export const SAMPLE_ROWS_SHOWN = 3;
