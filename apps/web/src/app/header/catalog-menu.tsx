import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { CATEGORIES, PLATFORM_GROUPS, PLATFORM_SLUGS } from '@keystore/contract/constants';
import { MenuIcon } from '../../ui/icons.tsx';
import styles from './catalog-menu.module.css';

const slugOf = (platform: string) => Object.entries(PLATFORM_SLUGS).find(([, name]) => name === platform)?.[0] ?? platform;

/** The header's catalogue dropdown: every category and every platform group, each a store link. */
export function CatalogMenu() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  return (
    <div className={styles.menu} ref={root}>
      <button type="button" className={styles.toggle} aria-label="Catalog" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen((value) => !value)}>
        <MenuIcon />
        <span className={styles.label}>Catalog</span>
      </button>
      {open && (
        <div id={menuId} className={styles.panel} onClick={(event) => (event.target as HTMLElement).closest('a') && setOpen(false)}>
          <nav aria-label="Categories">
            <h2 className={styles.heading}>Categories</h2>
            <ul>
              <li><Link to="/store">All</Link></li>
              {CATEGORIES.map((category) => (
                <li key={category}>
                  <Link to={`/store?category=${encodeURIComponent(category)}`}>{category}</Link>
                </li>
              ))}
            </ul>
          </nav>
          {PLATFORM_GROUPS.map((group) => (
            <nav key={group.label} aria-label={group.label}>
              <h2 className={styles.heading}>
                <Link to={`/store?platform=${group.platforms.map(slugOf).join(',')}`}>{group.label}</Link>
              </h2>
              <ul>
                {group.platforms.map((platform) => (
                  <li key={platform}>
                    <Link to={`/store?platform=${slugOf(platform)}`}>{platform}</Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
      )}
    </div>
  );
}
