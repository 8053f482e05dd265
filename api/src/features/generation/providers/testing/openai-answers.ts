/**
 * Answers an OpenAI-compatible server gives, for tests that run the real `openai` SDK against
 * a local server (`http-server.ts`).
 */

/** A `chat.completion` whose one message is `content` (what `chat.completions.create` reads). */
export function chatCompletion(content: string) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-chat',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        finish_reason: 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
  }
}
