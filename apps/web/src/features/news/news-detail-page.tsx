import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { MANUAL_NEWS_AUTHOR, newsMessages, newsParagraphs, OTHER_NEWS_COUNT } from '@keystore/contract/news-rules';
import { NewsCover } from './news-cover.tsx';
import { useNewsItem, useNewsList } from './api.ts';
import { otherNews, publishedAt, subtitleOf } from './news-info.ts';
import { NewsCard } from './news-list-page.tsx';
import styles from './news.module.css';

/** A news item (SPEC §2 News detail): breadcrumbs, cover, title, subtitle, paragraphs, author and time, other news. */
export function NewsDetailPage() {
  const { id = '' } = useParams();
  const { data: news, error } = useNewsItem(id);
  const { data: all } = useNewsList();
  // Chosen once per item, so the picks do not reshuffle on every render.
  const others = useMemo(() => (all ? otherNews(all, id, OTHER_NEWS_COUNT) : []), [all, id]);

  if (error) {
    return (
      <section className={styles.page}>
        <p className={styles.problem} role="alert">
          {newsMessages.loadFailed}
        </p>
        <Link to="/news" className={styles.back}>
          Back to news
        </Link>
      </section>
    );
  }
  if (!news) {
    return (
      <section className={styles.page} aria-busy="true">
        <span className="visually-hidden" role="status">
          Loading news
        </span>
        <div className={`${styles.bone} ${styles.detailCoverBone}`} />
      </section>
    );
  }
  return (
    <article className={styles.page} aria-labelledby="news-item-title">
      <nav aria-label="Breadcrumb" className={styles.crumbs}>
        <ol>
          <li>
            <Link to="/">Main</Link>
          </li>
          <li>
            <Link to="/news">News</Link>
          </li>
          <li>
            <span aria-current="page">{news.title}</span>
          </li>
        </ol>
      </nav>
      <NewsCover src={news.coverImage} className={styles.detailCover} eager />
      <header className={styles.detailHeader}>
        <span className={styles.category}>{news.category}</span>
        <h1 id="news-item-title" className={styles.title}>
          {news.title}
        </h1>
        <p className={styles.subtitle}>{subtitleOf(news.content)}</p>
      </header>
      <div className={styles.content}>
        {newsParagraphs(news.content).map((paragraph, index) => (
          <p key={index}>{paragraph}</p>
        ))}
      </div>
      <p className={styles.byline}>
        Published by {news.author || MANUAL_NEWS_AUTHOR} at <time dateTime={news.createdAt}>{publishedAt(news.createdAt)}</time>
      </p>
      {others.length > 0 && (
        <section aria-labelledby="other-news" className={styles.others}>
          <h2 id="other-news" className={styles.othersTitle}>
            Other news
          </h2>
          <ul className={styles.otherList}>
            {others.map((item) => (
              <li key={item._id}>
                <NewsCard news={item} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
