import { useEffect, useId, useRef, useState } from 'react';
import type { ChatMessage } from '@keystore/contract';
import { CHAT_CONTEXT_MESSAGES, SUPPORT_MESSAGE_MAX_LENGTH } from '@keystore/contract/constants';
import { supportMessages } from '@keystore/contract/messages';
import { useAskChat } from './api.ts';
import styles from './live-chat.module.css';

/** A chat line; a failed answer is shown but never sent back as context. */
interface Line extends ChatMessage {
  failed?: boolean;
}

/** The live chat (SPEC §2 Support): started on demand, greeted by the bot, each answer asked with the chat so far. */
export function LiveChat() {
  const [lines, setLines] = useState<Line[] | null>(null);
  if (!lines) {
    return (
      <section className={styles.start} aria-labelledby="chat-title">
        <h2 id="chat-title" className={styles.title}>
          Live chat
        </h2>
        <p className={styles.text}>Ask our AI support about refunds, delivery, payment, region locks, your keys and your orders.</p>
        <button type="button" className={styles.primary} onClick={() => setLines([{ sender: 'bot', text: supportMessages.chatGreeting }])}>
          Start a live chat
        </button>
      </section>
    );
  }
  return <Conversation lines={lines} setLines={setLines} />;
}

function Conversation({ lines, setLines }: { lines: Line[]; setLines: (update: (lines: Line[] | null) => Line[]) => void }) {
  const [draft, setDraft] = useState('');
  const askChat = useAskChat();
  const [waiting, setWaiting] = useState(false);
  const log = useRef<HTMLOListElement>(null);
  const inputId = useId();

  // The newest message stays in view, as in every chat.
  useEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [lines, waiting]);

  const send = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text || waiting) return;
    const context = lines.filter((line) => !line.failed).slice(-CHAT_CONTEXT_MESSAGES).map(({ sender, text: said }) => ({ sender, text: said }));
    setLines((current) => [...(current ?? []), { sender: 'user', text }]);
    setDraft('');
    setWaiting(true);
    try {
      const { answer } = await askChat.mutateAsync({ message: text, context });
      setLines((current) => [...(current ?? []), { sender: 'bot', text: answer }]);
    } catch {
      setLines((current) => [...(current ?? []), { sender: 'bot', text: supportMessages.chatFailed, failed: true }]);
    } finally {
      setWaiting(false);
    }
  };

  return (
    <section className={styles.chat} aria-labelledby="chat-title">
      <h2 id="chat-title" className={styles.title}>
        Live chat
      </h2>
      {/* Focusable, so keyboard users can scroll back through a long chat. */}
      <ol ref={log} className={styles.log} aria-label="Chat messages" aria-live="polite" tabIndex={0}>
        {lines.map((line, index) => (
          <li key={index} className={`${styles.line} ${line.sender === 'user' ? styles.user : styles.bot} ${line.failed ? styles.failed : ''}`}>
            <span className={styles.visuallyHidden}>{line.sender === 'user' ? 'You: ' : 'AI support: '}</span>
            {line.text}
          </li>
        ))}
      </ol>
      {waiting && (
        <p className={`${styles.line} ${styles.bot} ${styles.typing}`} role="status" aria-label="AI support is typing">
          <span />
          <span />
          <span />
        </p>
      )}
      <form className={styles.composer} onSubmit={send}>
        <label htmlFor={inputId} className={styles.visuallyHidden}>
          Your message
        </label>
        <textarea
          id={inputId}
          className={styles.input}
          rows={2}
          maxLength={SUPPORT_MESSAGE_MAX_LENGTH}
          placeholder="Type your question…"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            // Enter sends, Shift+Enter starts a new line, as in every chat.
            if (event.key === 'Enter' && !event.shiftKey) void send(event);
          }}
        />
        <div className={styles.composerFoot}>
          <span className={styles.counter}>
            {draft.length}/{SUPPORT_MESSAGE_MAX_LENGTH}
          </span>
          <button type="submit" className={styles.primary} disabled={waiting || !draft.trim()}>
            Send
          </button>
        </div>
      </form>
    </section>
  );
}
