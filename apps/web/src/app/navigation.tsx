import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { openAuthDialog } from '../lib/auth-dialog.ts';
import { useSession } from '../lib/session.ts';
import { HomeIcon, LibraryIcon, NewsIcon, ProfileIcon, StoreIcon, SupportIcon } from '../ui/icons.tsx';
import { UserBlock } from './user-block.tsx';
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

const BOTTOM_BAR_START: Item[] = [
  { to: '/', label: 'Home', icon: <HomeIcon /> },
  { to: '/store', label: 'Store', icon: <StoreIcon /> },
  { to: '/library', label: 'Library', icon: <LibraryIcon /> },
  { to: '/news', label: 'News', icon: <NewsIcon /> },
];
const BOTTOM_BAR_END: Item[] = [{ to: '/support', label: 'Support', icon: <SupportIcon /> }];

/** The left sidebar, shown above 878 px (SPEC §2), with the account corner at its foot. */
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
      <UserBlock />
    </nav>
  );
}

function Tab({ item }: { item: Item }) {
  return (
    <NavLink to={item.to} end={item.to === '/'} className={({ isActive }) => (isActive ? `${styles.tab} ${styles.active}` : styles.tab)}>
      {item.icon}
      <span>{item.label}</span>
    </NavLink>
  );
}

/** The bottom bar that replaces the sidebar at 878 px and narrower. */
export function BottomBar() {
  const { status, user } = useSession();
  return (
    <nav className={styles.bottom} aria-label="Main">
      {BOTTOM_BAR_START.map((item) => (
        <Tab key={item.to} item={item} />
      ))}
      {status === 'signed-out' ? (
        // Logged out, Profile is the way in: it opens the login dialog (SPEC §2).
        <button type="button" className={styles.tab} onClick={() => openAuthDialog('login')}>
          <ProfileIcon />
          <span>Profile</span>
        </button>
      ) : (
        <Tab item={{ to: '/profile', label: user?.username ?? 'Profile', icon: <ProfileIcon /> }} />
      )}
      {BOTTOM_BAR_END.map((item) => (
        <Tab key={item.to} item={item} />
      ))}
    </nav>
  );
}
