import { Link } from 'react-router';
import { pageList } from './pagination-pages.ts';
import styles from './pagination.module.css';

interface PaginationProps {
  page: number;
  pageCount: number;
  /** The URL query of a page ("?genre=RPG&page=3"): pages are links, so they open in a new tab and go in history. */
  searchOf: (page: number) => string;
}

/** Previous, numbered pages (collapsed with ellipses above 5 pages) and Next. */
export function Pagination({ page, pageCount, searchOf }: PaginationProps) {
  if (pageCount <= 1) return null;
  const toTop = () => window.scrollTo({ top: 0 });
  const step = (target: number, label: string) =>
    target < 1 || target > pageCount ? (
      <span className={`${styles.step} ${styles.off}`} aria-disabled="true">
        {label}
      </span>
    ) : (
      <Link className={styles.step} to={{ search: searchOf(target) }} onClick={toTop}>
        {label}
      </Link>
    );

  return (
    <nav className={styles.pagination} aria-label="Pagination">
      {step(page - 1, 'Previous')}
      <ol className={styles.pages}>
        {pageList(page, pageCount).map((entry, index) =>
          entry === 'gap' ? (
            <li key={`gap-${index}`} className={styles.gap} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={entry}>
              <Link
                className={entry === page ? `${styles.number} ${styles.current}` : styles.number}
                to={{ search: searchOf(entry) }}
                aria-label={`Page ${entry}`}
                aria-current={entry === page ? 'page' : undefined}
                onClick={toTop}
              >
                {entry}
              </Link>
            </li>
          ),
        )}
      </ol>
      {step(page + 1, 'Next')}
    </nav>
  );
}
