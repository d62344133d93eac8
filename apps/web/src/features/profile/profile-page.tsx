import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { PurchaseHistoryEntry, User } from '@keystore/contract';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { signOut, useSession, type SessionState } from '../../lib/session.ts';
import { Avatar } from './avatar.tsx';
import { AvatarModal } from './avatar-modal.tsx';
import { AlertMailSwitch } from '../../ui/alert-mail-switch.tsx';
import { DeleteAccount } from './delete-account.tsx';
import { CameraIcon } from './icons.tsx';
import { MembershipStats } from './membership-stats.tsx';
import { OrderDetails } from './order-details.tsx';
import { OrderHistory } from './order-history.tsx';
import { PasswordForm } from './password-form.tsx';
import { ProfileSkeleton } from './profile-skeleton.tsx';
import { SecuritySection } from './security-section.tsx';
import { useProfileRefresh } from './use-profile.ts';
import controls from './controls.module.css';
import styles from './profile-page.module.css';

/** The profile (SPEC §2 Profile): who you are, your level, your orders, your password and your account. */
export function ProfilePage() {
  const session = useSession();
  useLoginForVisitors(session.status);
  if (session.status === 'restoring') return <ProfileSkeleton />;
  if (!session.user || !session.token) return <SignedOutPrompt />;
  return <Profile user={session.user} token={session.token} />;
}

/**
 * Opens the login dialog for someone who arrives signed out (or whose stored session fails), but
 * not for someone who just logged out or deleted the account here: they are on their way home.
 */
function useLoginForVisitors(status: SessionState['status']): void {
  const previous = useRef(status);
  useEffect(() => {
    const before = previous.current;
    previous.current = status;
    if (status === 'signed-out' && before !== 'signed-in') openAuthDialog('login');
  }, [status]);
}

function SignedOutPrompt() {
  return (
    <section className={styles.prompt} aria-labelledby="profile-title">
      <h1 id="profile-title" className={styles.title}>
        Profile
      </h1>
      <p className={styles.cardText}>Sign in to see your profile, your orders and your account settings.</p>
      <button type="button" className={controls.primary} onClick={() => openAuthDialog('login')}>
        Sign In
      </button>
    </section>
  );
}

function Profile({ user, token }: { user: User; token: string }) {
  const navigate = useNavigate();
  const [editingPhoto, setEditingPhoto] = useState(false);
  const [orderShown, setOrderShown] = useState<PurchaseHistoryEntry | null>(null);
  useProfileRefresh(token);

  const logOut = () => {
    navigate('/');
    signOut();
  };

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>Profile</h1>
      <section className={styles.summary} aria-label="Account">
        <div className={styles.identity}>
          <Avatar src={user.avatar} size={80} alt="Profile photo" />
          <div className={styles.names}>
            <p className={styles.username}>{user.username}</p>
            <p className={styles.email}>{user.email}</p>
          </div>
          <div className={styles.identityActions}>
            {user.role === 'admin' && (
              <Link to="/admin" className={controls.secondary}>
                Back office
              </Link>
            )}
            {/* The marketplace's seller area (issue 23): apply, or manage offers, keys and payouts. */}
            <Link to="/seller" className={controls.secondary}>
              Sell on Keystore
            </Link>
            <button type="button" className={controls.secondary} onClick={() => setEditingPhoto(true)}>
              <CameraIcon />
              Edit profile photo
            </button>
            <button type="button" className={`${controls.secondary} ${styles.mobileOnly}`} onClick={logOut}>
              Log out
            </button>
          </div>
        </div>
        <MembershipStats user={user} />
      </section>
      <div className={styles.columns}>
        <OrderHistory entries={user.purchaseHistory} onDetails={setOrderShown} />
        <div className={styles.settings}>
          <PasswordForm token={token} />
          <SecuritySection token={token} />
          <section className={styles.card} aria-labelledby="alerts-title">
            <h2 id="alerts-title" className={styles.cardTitle}>
              Wishlist alerts
            </h2>
            <AlertMailSwitch />
          </section>
          <DeleteAccount />
        </div>
      </div>
      {orderShown && <OrderDetails entry={orderShown} onClose={() => setOrderShown(null)} />}
      {editingPhoto && <AvatarModal user={user} onClose={() => setEditingPhoto(false)} />}
    </div>
  );
}
