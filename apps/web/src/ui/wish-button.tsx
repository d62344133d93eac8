import { loadMessages } from '@keystore/contract/load-messages';
import { messageOf } from '../lib/api.ts';
import { toggleWish, useWished } from '../lib/wishlist.ts';
import { HeartIcon } from './icons.tsx';
import { showToast } from './toasts.tsx';
import styles from './wish-button.module.css';

/** The wishlist's heart (issue 31): a toggle button whose pressed state says whether the game is wished for. */
export function WishButton({ gameId, title, className }: { gameId: string; title: string; className?: string }) {
  const wished = useWished(gameId);
  return (
    <button
      type="button"
      className={`${styles.heart} ${className ?? ''}`}
      aria-pressed={wished}
      aria-label={`Wishlist: ${title}`}
      title={wished ? 'On your wishlist' : 'Add to wishlist'}
      onClick={() => toggleWish(gameId).catch((error: unknown) => showToast(messageOf(error, loadMessages.wishlistUnchanged), 'error'))}
    >
      <HeartIcon />
    </button>
  );
}
