import type { ChatAnswer, ChatMessage, FeedbackRequest, MessageAnswer } from '@keystore/contract';
import { apiSend } from '../../lib/api.ts';

/** Sends the e-mail form (SPEC §7); the server answers a confirmation text. */
export function sendFeedback(request: FeedbackRequest): Promise<MessageAnswer> {
  return apiSend<MessageAnswer>('POST', '/api/support/feedback', request);
}

/** Asks the support chat; `context` is the chat so far. The session headers say who asks when logged in. */
export function askChat(message: string, context: ChatMessage[]): Promise<ChatAnswer> {
  return apiSend<ChatAnswer>('POST', '/api/support/chat', { message, context });
}
