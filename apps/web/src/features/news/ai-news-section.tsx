import { useState } from 'react';
import type { GeneratedText } from '@keystore/contract';
import { AI_NEWS_CATEGORY, newsMessages, newsParagraphs } from '@keystore/contract/news-rules';
import { showToast } from '../../ui/toasts.tsx';
import { useCreateNews, useGenerateNewsImage, useGenerateNewsText } from './api.ts';
import styles from './admin-news.module.css';

type Busy = 'text' | 'image' | 'save' | null;

/**
 * The AI flow (SPEC §4): nothing generated, then text, then image, then Approve (saves and resets)
 * or Regenerate (resets). The image needs the text first and saving needs a draft (SPEC §5).
 */
export function AiNewsSection() {
  const createNews = useCreateNews();
  const generateText = useGenerateNewsText();
  const generateImage = useGenerateNewsImage();
  const [topic, setTopic] = useState('');
  const [draft, setDraft] = useState<GeneratedText | null>(null);
  const [cover, setCover] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(null);

  const reset = () => {
    setDraft(null);
    setCover(null);
  };

  const run = async (what: Busy, action: () => Promise<void>, failure: string) => {
    setBusy(what);
    try {
      await action();
    } catch {
      showToast(failure, 'error');
    } finally {
      setBusy(null);
    }
  };

  const writeText = () =>
    run('text', async () => {
      setCover(null);
      setDraft(await generateText.mutateAsync(topic));
    }, newsMessages.textFailed);

  const drawImage = () => {
    if (!draft) return showToast(newsMessages.textFirst, 'error');
    return run('image', async () => setCover((await generateImage.mutateAsync(draft.title)).coverImage), newsMessages.imageFailed);
  };

  const approve = () => {
    if (!draft) return showToast(newsMessages.nothingToSave, 'error');
    return run('save', async () => {
      await createNews.mutateAsync({ title: draft.title, content: draft.content, category: AI_NEWS_CATEGORY, author: draft.author, coverImage: cover });
      showToast(newsMessages.approved);
      reset();
      setTopic('');
    }, newsMessages.saveFailed);
  };

  return (
    <section className={styles.panel} aria-labelledby="ai-news" aria-busy={busy !== null}>
      <h2 id="ai-news" className={styles.panelTitle}>
        Generate with AI
      </h2>
      <label className={styles.field}>
        Topic
        <input value={topic} onChange={(event) => setTopic(event.target.value)} placeholder="e.g. price drops, new arrivals, PS5 best sellers" />
      </label>
      <div className={styles.actions}>
        <button type="button" className={styles.primary} onClick={writeText} disabled={busy !== null || !topic.trim()}>
          {busy === 'text' ? 'Generating…' : 'Generate News Text'}
        </button>
        <button type="button" className={styles.secondary} onClick={drawImage} disabled={busy !== null}>
          {busy === 'image' ? 'Generating…' : 'Generate News Image'}
        </button>
      </div>
      {draft && (
        <article className={styles.draft} aria-label="Generated news">
          {cover && <img src={cover} alt="Generated cover" className={styles.preview} />}
          <h3 className={styles.draftTitle}>{draft.title}</h3>
          {newsParagraphs(draft.content).map((paragraph, index) => (
            <p key={index} className={styles.draftText}>
              {paragraph}
            </p>
          ))}
          <p className={styles.muted}>By {draft.author}</p>
        </article>
      )}
      <div className={styles.actions}>
        <button type="button" className={styles.primary} onClick={approve} disabled={busy !== null}>
          {busy === 'save' ? 'Saving…' : 'Approve'}
        </button>
        <button type="button" className={styles.secondary} onClick={reset} disabled={busy !== null}>
          Regenerate
        </button>
      </div>
    </section>
  );
}
