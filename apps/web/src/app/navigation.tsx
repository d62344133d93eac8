import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { HomeIcon, LibraryIcon, NewsIcon, ProfileIcon, StoreIcon, SupportIcon } from '../ui/icons.tsx';
import styles from './navigation.module.css';

interface Item {
  to: string;
  label: string;
  icon: ReactNode;
}

const SIDEBAR: Item[] = [
  { to: '/store', label: 'Store', icon: <StoreIcon /> },
  { to: '/library', label: 'Library', icon: <LibraryIcon /> },
  { to: '/news', label: 'News', icon: <NewsIcon /> },
  { to: '/support', label: 'Support', icon: <SupportIcon /> },
];

const BOTTOM_BAR: Item[] = [
  { to: '/', label: 'Home', icon: <HomeIcon /> },
  { to: '/store', label: 'Store', icon: <StoreIcon /> },
  { to: '/library', label: 'Library', icon: <LibraryIcon /> },
  { to: '/news', label: 'News', icon: <NewsIcon /> },
  { to: '/profile', label: 'Profile', icon: <ProfileIcon /> },
  { to: '/support', label: 'Support', icon: <SupportIcon /> },
];

/** The left sidebar, shown above 878 px (SPEC §2). */
export function Sidebar() {
  return (
    <nav className={styles.sidebar} aria-label="Main">
      <ul>
        {SIDEBAR.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} className={({ isActive }) => (isActive ? `${styles.link} ${styles.active}` : styles.link)}>
              {item.icon}
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The bottom bar that replaces the sidebar at 878 px and narrower. */
export function BottomBar() {
  return (
    <nav className={styles.bottom} aria-label="Main">
      {BOTTOM_BAR.map((item) => (
        <NavLink key={item.to} to={item.to} end={item.to === '/'} className={({ isActive }) => (isActive ? `${styles.tab} ${styles.active}` : styles.tab)}>
          {item.icon}
          <span>{item.label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
