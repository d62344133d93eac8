import { Link, useLocation, useNavigate } from 'react-router';
import { openAuthDialog } from '../lib/auth-dialog.ts';
import { signOut, useSession } from '../lib/session.ts';
import { ProfileIcon } from '../ui/icons.tsx';
import styles from './navigation.module.css';

/**
 * The sidebar's account corner (SPEC §2): avatar, username and Log out when signed in; Login and
 * Sign Up otherwise. While a stored token is being checked it keeps its size, so nothing jumps.
 */
export function UserBlock() {
  const { status, user } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  if (status === 'restoring') return <div className={styles.user} aria-hidden="true" data-placeholder />;
  if (status === 'signed-in' && user) {
    return (
      <div className={styles.user}>
        <Link to="/profile" className={styles.who}>
          {user.avatar ? <img src={user.avatar} alt="" width={40} height={40} className={styles.avatar} /> : <span className={styles.avatar}><ProfileIcon /></span>}
          <span className={styles.username}>{user.username}</span>
        </Link>
        {user.role === 'admin' && (
          <Link to="/admin" className={styles.secondary}>
            Back office
          </Link>
        )}
        <button
          type="button"
          className={styles.secondary}
          onClick={() => {
            signOut();
            if (pathname.startsWith('/profile')) void navigate('/');
          }}
        >
          Log out
        </button>
      </div>
    );
  }
  return (
    <div className={styles.user}>
      <button type="button" className={styles.primary} onClick={() => openAuthDialog('login')}>
        Login
      </button>
      <button type="button" className={styles.secondary} onClick={() => openAuthDialog('signup')}>
        Sign Up
      </button>
    </div>
  );
}
