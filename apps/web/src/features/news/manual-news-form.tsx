import { useEffect, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { MANUAL_NEWS_AUTHOR, newsCategoryProblem, newsContentProblem, newsMessages, newsTitleProblem } from '@keystore/contract/news-rules';
import { byRule } from '../../lib/form-rules.ts';
import { showToast } from '../../ui/toasts.tsx';
import { useCreateNews } from './api.ts';
import styles from './admin-news.module.css';

interface ManualFields {
  title: string;
  category: string;
  content: string;
  coverImage: FileList | null;
}

const EMPTY: ManualFields = { title: '', category: '', content: '', coverImage: null };

/** Each field's rule from the contract: the same the server's schema checks the request with. */
const RULES = { title: newsTitleProblem, category: newsCategoryProblem, content: newsContentProblem };

/** The manual form: Title, Category, Content, Cover Image with preview, 'Create News' (SPEC §2). */
export function ManualNewsForm() {
  const createNews = useCreateNews();
  const { register, handleSubmit, reset, control, formState } = useForm<ManualFields>({ defaultValues: EMPTY });
  const { errors, isSubmitting } = formState;
  const cover = useWatch({ control, name: 'coverImage' })?.[0] ?? null;
  const preview = usePreview(cover);

  const submit = handleSubmit(async ({ title, category, content }) => {
    const form = new FormData();
    form.append('title', title);
    form.append('category', category);
    form.append('content', content);
    form.append('author', MANUAL_NEWS_AUTHOR);
    if (cover) form.append('coverImage', cover);
    try {
      await createNews.mutateAsync(form);
      showToast(newsMessages.created);
      reset(EMPTY);
    } catch {
      showToast(newsMessages.createFailed, 'error');
    }
  });

  const problem = (name: keyof ManualFields) =>
    errors[name]?.message ? (
      <span id={`news-${name}-error`} className={styles.problem} role="alert">
        {errors[name].message}
      </span>
    ) : null;
  const described = (name: keyof ManualFields) => (errors[name] ? { 'aria-invalid': true, 'aria-describedby': `news-${name}-error` } : {});

  return (
    <form className={styles.panel} onSubmit={submit} noValidate aria-labelledby="manual-news">
      <h2 id="manual-news" className={styles.panelTitle}>
        Create news
      </h2>
      <div className={styles.field}>
        <label htmlFor="news-title">Title</label>
        <input id="news-title" {...register('title', { validate: byRule(RULES.title) })} {...described('title')} />
        {problem('title')}
      </div>
      <div className={styles.field}>
        <label htmlFor="news-category">Category</label>
        <input id="news-category" {...register('category', { validate: byRule(RULES.category) })} {...described('category')} />
        {problem('category')}
      </div>
      <div className={styles.field}>
        <label htmlFor="news-content">Content</label>
        <textarea id="news-content" rows={8} {...register('content', { validate: byRule(RULES.content) })} {...described('content')} />
        {problem('content')}
      </div>
      <div className={styles.field}>
        <label htmlFor="news-cover">Cover Image</label>
        <input id="news-cover" type="file" accept="image/*" {...register('coverImage')} />
      </div>
      {preview && <img src={preview} alt="Cover preview" className={styles.preview} />}
      <button type="submit" className={styles.primary} disabled={isSubmitting}>
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
