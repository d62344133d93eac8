import { TOP_SALES_COUNT, type Game, type News } from '@keystore/contract';
import { STORE_META } from '@keystore/contract/constants';
import { HttpError } from '../../platform/errors.ts';
import type { CatalogService } from '../catalog/service.ts';

/** What the server puts in a page's <head> before the browser app takes over, and the status it answers. */
export interface PageHead {
  status: number;
  title: string;
  description: string;
  /** Path of the page, for the canonical link and og:url. */
  path: string;
  image?: string;
  type?: 'website' | 'product';
  jsonLd?: object;
  /** The web app's module for this page (a key of the build manifest), fetched along with the HTML. */
  entry?: string;
  /** Data and images the page will ask for at once: fetched along with the HTML too. */
  preload?: Array<{ href: string; as: 'fetch' | 'image' }>;
  /** A page of one person's account or a one-time link: kept out of search results. */
  noindex?: boolean;
}

const SITE = 'Keystore';

/** What a news page's head needs of the news module: one item, or undefined when there is none. */
export interface NewsLookup {
  find(id: string): Promise<News | undefined>;
}

const HOME_ENTRY = 'src/features/home/home-page.tsx';
// The exact request of the home page's top sales (apps/web/src/features/home/use-top-sales.ts).
const HOME_PRELOAD: PageHead['preload'] = [{ href: `/api/games?sort=popularity&pageSize=${TOP_SALES_COUNT}`, as: 'fetch' }];

/** The web app's pages with their own title and description (keep in step with apps/web/src/app/router.tsx). */
export const STATIC_PAGES: Record<string, Pick<PageHead, 'title' | 'description' | 'entry' | 'preload'> & { indexed: boolean }> = {
  '/': {
    title: 'Keystore: digital game keys for PC, Xbox, PlayStation and Nintendo',
    description: 'Game keys, DLC and gift cards at fair prices in euro, delivered to your library within one business day.',
    indexed: true,
    entry: HOME_ENTRY,
    preload: HOME_PRELOAD,
  },
  '/store': {
    title: 'Store · Keystore',
    description: 'Browse thousands of game keys, DLC and gift cards. Filter by platform, genre, region and language.',
    indexed: true,
    entry: 'src/features/store/store-page.tsx',
  },
  '/cart': { title: 'Cart · Keystore', description: 'Your cart at Keystore.', indexed: false, entry: 'src/features/cart/cart-page.tsx' },
  '/library': { title: 'Library · Keystore', description: 'Your purchased games and their keys.', indexed: false, entry: 'src/features/library/library-page.tsx' },
  '/support': {
    title: 'Support · Keystore',
    description: 'Write to Keystore support or ask our AI assistant about refunds, delivery, payment and keys.',
    indexed: true,
    entry: 'src/features/support/support-page.tsx',
  },
  '/profile': { title: 'Profile · Keystore', description: 'Your Keystore account.', indexed: false, entry: 'src/features/profile/profile-page.tsx' },
  '/news': { title: 'News · Keystore', description: 'New arrivals, price drops and store news from Keystore.', indexed: true, entry: 'src/features/news/news-list-page.tsx' },
  '/admin/news': { title: 'Admin news · Keystore', description: 'Publish store news.', indexed: false, entry: 'src/features/news/admin-news-page.tsx' },
  '/confirm-email': {
    title: 'Confirm your email · Keystore',
    description: 'Confirming the email address of your Keystore account.',
    indexed: false,
    entry: 'src/features/auth/confirm-email-page.tsx',
  },
  // These two open a dialog over the home page.
  '/reset-password': { title: 'Reset password · Keystore', description: 'Choose a new password for your Keystore account.', indexed: false, entry: HOME_ENTRY, preload: HOME_PRELOAD },
  '/login': { title: 'Login · Keystore', description: 'Log in to your Keystore account.', indexed: false, entry: HOME_ENTRY, preload: HOME_PRELOAD },
  '/terms': { title: 'Terms & Conditions · Keystore', description: 'The terms of sale of Keystore Digital Ltd.', indexed: true, entry: 'src/features/legal/terms-page.tsx' },
  '/cookie-policy': {
    title: 'Cookie Policy · Keystore',
    description: 'Which cookies Keystore uses and how to change your consent.',
    indexed: true,
    entry: 'src/features/legal/cookie-policy-page.tsx',
  },
  '/privacy-policy': {
    title: 'Privacy Policy · Keystore',
    description: 'How Keystore handles your personal data.',
    indexed: true,
    entry: 'src/features/legal/privacy-policy-page.tsx',
  },
};

const PAY_PAGE = { title: `Payment · ${SITE}`, description: 'Pay for your Keystore order.', entry: 'src/features/payment/pay-page.tsx' };

const NOT_FOUND = { title: `Page not found · ${SITE}`, description: 'This page does not exist. Back to the store.' };

/** The head and status of a page path: 404 for any path the store does not know, and for unknown games. */
export async function pageHead(pathname: string, catalog: CatalogService, publicUrl: string, news?: NewsLookup): Promise<PageHead> {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const known = STATIC_PAGES[path];
  if (known) {
    return { status: 200, title: known.title, description: known.description, path, entry: known.entry, preload: known.preload, noindex: !known.indexed };
  }
  // A payment page belongs to one signed-in buyer's order: served (the app checks the order), never indexed.
  if (/^\/pay\/[A-Za-z0-9_-]{1,64}$/.test(path)) {
    return { status: 200, ...PAY_PAGE, path, noindex: true };
  }
  const newsItem = /^\/news\/([a-z0-9]{1,64})$/.exec(path);
  if (newsItem && news) {
    const item = await news.find(newsItem[1]!);
    if (item) return newsHead(item, path, publicUrl);
  }
  const game = /^\/game\/([a-z0-9]{1,64})$/.exec(path);
  if (game) {
    try {
      return gameHead(await catalog.game(game[1]!), path, publicUrl);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 404) throw error;
    }
  }
  return { status: 404, ...NOT_FOUND, path };
}

/** A news item's head: its title, its first words as the description, its cover as the image. */
function newsHead(item: News, path: string, publicUrl: string): PageHead {
  return {
    status: 200,
    title: `${item.title} · ${SITE}`,
    description: item.content.replace(/\s+/g, ' ').slice(0, 155),
    path,
    type: 'website',
    entry: 'src/features/news/news-detail-page.tsx',
    ...(item.coverImage ? { image: `${publicUrl}${item.coverImage}` } : {}),
    preload: [{ href: `/api/news/${item._id}`, as: 'fetch' }],
  };
}

function gameHead(game: Game, path: string, publicUrl: string): PageHead {
  const image = game.coverImage.startsWith('/') ? `${publicUrl}${game.coverImage}` : game.coverImage;
  const summary = (game.description ?? `${game.title} key for ${game.platform}.`).slice(0, 155);
  return {
    status: 200,
    title: `${game.title} (${game.platform}) · ${SITE}`,
    description: summary,
    path,
    image,
    type: 'product',
    entry: 'src/features/game/game-page.tsx',
    preload: [
      { href: `/api/games/${game._id}`, as: 'fetch' },
      { href: game.coverImage, as: 'image' },
    ],
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: game.title,
      sku: game._id,
      image,
      description: game.description ?? undefined,
      category: game.type,
      offers: {
        '@type': 'Offer',
        url: `${publicUrl}${path}`,
        price: game.price.toFixed(2),
        priceCurrency: 'EUR',
        availability: game.stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      },
    },
  };
}

/** The head as HTML tags, every value escaped; `chunks` are the page's own script and style files. */
export function headHtml(head: PageHead, publicUrl: string, chunks: { scripts: string[]; styles: string[] } = { scripts: [], styles: [] }): string {
  const url = `${publicUrl}${head.path}`;
  const tags = [
    ...chunks.scripts.map((file) => `<link rel="modulepreload" crossorigin href="${escapeHtml(file)}" />`),
    ...chunks.styles.map((file) => `<link rel="stylesheet" crossorigin href="${escapeHtml(file)}" />`),
    ...(head.preload ?? []).map((item) =>
      item.as === 'fetch'
        ? `<link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeHtml(item.href)}" />`
        : `<link rel="preload" as="image" href="${escapeHtml(item.href)}" />`,
    ),
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:site_name" content="${SITE}" />`,
    `<meta property="og:type" content="${head.type ?? 'website'}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    head.image ? `<meta property="og:image" content="${escapeHtml(head.image)}" />` : '',
    head.status === 404 || head.noindex ? '<meta name="robots" content="noindex" />' : '',
    // JSON inside <script>: "<" escaped so a title can never close the element.
    head.jsonLd ? `<script type="application/ld+json">${JSON.stringify(head.jsonLd).replace(/</g, '\\u003c')}</script>` : '',
  ];
  return tags.filter(Boolean).join('\n    ');
}

/** The configuration the web app reads from every page (contract STORE_META): one value, the server's. */
export function storeMetaHtml(store: { supportEmail: string }): string {
  return `<meta name="${STORE_META.supportEmail}" content="${escapeHtml(store.supportEmail)}" />`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
