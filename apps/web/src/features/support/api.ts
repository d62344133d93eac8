import { useMutation } from '@tanstack/react-query';
import type { ChatAnswer, ChatMessage, ChatRequest, FeedbackRequest, MessageAnswer } from '@keystore/contract';
import { apiSend } from '../../lib/api.ts';

// The support calls (SPEC §7, support): neither changes anything the app has fetched.

/** Sends the e-mail form (POST /api/support/feedback); the server answers a confirmation text. */
export function useSendFeedback() {
  return useMutation({ mutationFn: (request: FeedbackRequest) => apiSend<MessageAnswer, FeedbackRequest>('POST', '/api/support/feedback', request) });
}

/** Asks the support chat (POST /api/support/chat); `context` is the chat so far. The session headers say who asks when logged in. */
export function useAskChat() {
  return useMutation({
    mutationFn: ({ message, context }: { message: string; context: ChatMessage[] }) =>
      apiSend<ChatAnswer, ChatRequest>('POST', '/api/support/chat', { message, context }),
  });
}
