import { Link } from 'react-router';
import type { News } from '@keystore/contract';
import { newsMessages } from '@keystore/contract/news-rules';
import { NewsCover } from './news-cover.tsx';
import { useNewsList } from './api.ts';
import { subtitleOf } from './news-info.ts';
import styles from './news.module.css';

/** How many of the newest items are large hero cards on wide screens (SPEC §2). */
const HERO_COUNT = 2;

/** The news list (SPEC §2 News): the 2 newest as hero cards, the rest in a grid; one grid at 768 px and below. */
export function NewsListPage() {
  const { data: news, error } = useNewsList();
  return (
    <section className={styles.page} aria-labelledby="news-title">
      <h1 id="news-title" className={styles.title}>
        News
      </h1>
      {error ? (
        <p className={styles.problem} role="alert">
          {newsMessages.loadFailed}
        </p>
      ) : !news ? (
        <NewsSkeleton />
      ) : news.length === 0 ? (
        <p className={styles.empty}>{newsMessages.empty}</p>
      ) : (
        <ul className={styles.list} aria-label="News">
          {news.map((item, index) => (
            <li key={item._id} className={index < HERO_COUNT ? styles.hero : styles.gridItem}>
              <NewsCard news={item} eager={index < HERO_COUNT} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One item as a card linking to its page. */
export function NewsCard({ news, eager = false }: { news: News; eager?: boolean }) {
  return (
    <Link to={`/news/${news._id}`} className={styles.card}>
      <NewsCover src={news.coverImage} eager={eager} />
      <span className={styles.cardBody}>
        <span className={styles.category}>{news.category}</span>
        <span className={styles.cardTitle}>{news.title}</span>
        <span className={styles.cardText}>{subtitleOf(news.content)}</span>
      </span>
    </Link>
  );
}

function NewsSkeleton() {
  return (
    <div className={styles.list} aria-busy="true">
      <span className="visually-hidden" role="status">
        Loading news
      </span>
      {[0, 1, 2, 3, 4].map((n) => (
        <div key={n} className={`${styles.bone} ${n < HERO_COUNT ? styles.hero : styles.gridItem}`} />
      ))}
    </div>
  );
}
