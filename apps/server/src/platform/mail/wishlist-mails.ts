// The wishlist's alerts (issue 31): a price drop or a game back in stock, with the game's link and a
// one-click unsubscribe (RFC 8058) carried in the headers, which the outbox keeps for a retry.
import type { MailMessage } from '../mailer.ts';
import { compose, STORE_NAME, type MailContext } from './layout.ts';

export interface WishlistAlert {
  kind: 'price-drop' | 'back-in-stock';
  title: string;
  gameId: string;
  /** Euro, formatted. */
  was: string;
  now: string;
}

/** The alert mail; `unsubscribe` is the signed token that turns alert mails off. */
export function wishlistAlertMail(context: MailContext, to: { email: string; username: string }, alert: WishlistAlert, unsubscribe: string): MailMessage {
  const gameUrl = `${context.publicUrl}/game/${encodeURIComponent(alert.gameId)}`;
  const oneClick = `${context.publicUrl}/api/alerts/unsubscribe?token=${encodeURIComponent(unsubscribe)}`;
  const page = `${context.publicUrl}/alerts/unsubscribe?token=${encodeURIComponent(unsubscribe)}`;
  const mail = compose(context, to.email, {
    subject: alert.kind === 'price-drop' ? `${STORE_NAME}: ${alert.title} is now ${alert.now}` : `${STORE_NAME}: ${alert.title} is back in stock`,
    greeting: `Hi ${to.username},`,
    paragraphs:
      alert.kind === 'price-drop'
        ? [`A game on your wishlist costs less: ${alert.title} is now ${alert.now} (was ${alert.was}).`]
        : [`A game on your wishlist is back in stock: ${alert.title}, at ${alert.now}.`],
    button: { label: 'See the game', href: gameUrl },
    after: [`You get this because the game is on your wishlist. To get no more alert e-mails, open ${page} (the alerts stay in the bell on the site).`],
  });
  return { ...mail, headers: { 'List-Unsubscribe': `<${oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}
