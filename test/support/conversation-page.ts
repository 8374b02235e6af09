// The uploaded-conversation list answers a page, or with view=metric_breakdown a breakdown (facts-shapes 2.5 UC2):
// tests that list conversations take the page variant through pageOf, which fails loudly on the other one.
import type { Client } from '../../generated/client/index.js';

type ListAnswer = Awaited<ReturnType<Client['conversations']['listUploadedConversations']>>;

/** The page variant of the list's answer. */
export function pageOf(answer: ListAnswer): Extract<ListAnswer, { uploaded_conversations: unknown }> {
  if (!('uploaded_conversations' in answer)) throw new Error(`expected a page of conversations, got ${JSON.stringify(answer)}`);
  return answer;
}
