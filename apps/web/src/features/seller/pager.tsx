import buttons from '../../ui/buttons.module.css';
import styles from './seller.module.css';

/** Previous and Next under a paged table of the seller area, with where the reader is; nothing for one page. */
interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** The navigation's name, for a page with more than one pager. */
  label?: string;
}

export function Pager({ page, pageSize, total, onPage, label = 'Pages' }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  return (
    <nav className={styles.pager} aria-label={label}>
      <button type="button" className={`${buttons.secondary} ${buttons.small}`} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" className={`${buttons.secondary} ${buttons.small}`} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
