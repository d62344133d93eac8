// What other modules may use of the AI module (eslint.config.js lets them import only this file).
export type { AiProvider, ChatMessage } from './provider.ts';
