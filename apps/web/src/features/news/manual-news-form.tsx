import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { MANUAL_NEWS_AUTHOR, newsFieldsSchema, newsMessages } from '@keystore/contract';
import { showToast } from '../../ui/toasts.tsx';
import { createNews, NEWS_KEY } from './news-api.ts';
import styles from './admin-news.module.css';

const EMPTY = { title: '', category: '', content: '' };

/** The manual form: Title, Category, Content, Cover Image with preview, 'Create News' (SPEC §2). */
export function ManualNewsForm() {
  const queryClient = useQueryClient();
  const [fields, setFields] = useState(EMPTY);
  const [cover, setCover] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [fileKey, setFileKey] = useState(0);
  const preview = usePreview(cover);

  const change = (name: keyof typeof EMPTY) => (event: { target: { value: string } }) => setFields({ ...fields, [name]: event.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = newsFieldsSchema.safeParse(fields);
    if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? newsMessages.createFailed);
    setProblem(null);
    const form = new FormData();
    for (const [name, value] of Object.entries(checked.data)) form.append(name, String(value));
    form.append('author', MANUAL_NEWS_AUTHOR);
    if (cover) form.append('coverImage', cover);
    setSending(true);
    try {
      await createNews(form);
      showToast(newsMessages.created);
      setFields(EMPTY);
      setCover(null);
      // A new file input: the chosen file cannot be cleared from a controlled value.
      setFileKey((key) => key + 1);
      void queryClient.invalidateQueries({ queryKey: NEWS_KEY });
    } catch {
      showToast(newsMessages.createFailed, 'error');
    } finally {
      setSending(false);
    }
  };

  return (
    <form className={styles.panel} onSubmit={submit} noValidate aria-labelledby="manual-news">
      <h2 id="manual-news" className={styles.panelTitle}>
        Create news
      </h2>
      <label className={styles.field}>
        Title
        <input value={fields.title} onChange={change('title')} required />
      </label>
      <label className={styles.field}>
        Category
        <input value={fields.category} onChange={change('category')} required />
      </label>
      <label className={styles.field}>
        Content
        <textarea value={fields.content} onChange={change('content')} rows={8} required />
      </label>
      <label className={styles.field}>
        Cover Image
        <input key={fileKey} type="file" accept="image/*" onChange={(event) => setCover(event.target.files?.[0] ?? null)} />
      </label>
      {preview && <img src={preview} alt="Cover preview" className={styles.preview} />}
      {problem && (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className={styles.primary} disabled={sending}>
        Create News
      </button>
    </form>
  );
}

/** An object URL showing the chosen file, released when another file is chosen or the form goes. */
function usePreview(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}
