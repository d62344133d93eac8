import { TOP_SALES_COUNT, type Game, type News } from '@keystore/contract';
import { STORE_META } from '@keystore/contract/constants';
import { PAGE_KEYS, PAGES, matchPage, pageModule, type PageKey } from '@keystore/contract/pages';
import { ID_PATTERN } from '@keystore/contract/text-rules';
import { HttpError } from '../../platform/errors.ts';
import type { CatalogService } from '../catalog/ports.ts';

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

// The exact request of the home page's top sales (apps/web/src/features/home/use-top-sales.ts).
const HOME_PRELOAD: NonNullable<PageHead['preload']> = [{ href: `/api/games?sort=popularity&pageSize=${TOP_SALES_COUNT}`, as: 'fetch' }];

/** What a page asks for at once, beyond its chunk: the home page's list (also under the login and reset dialogs). */
const PAGE_PRELOADS: Partial<Record<PageKey, PageHead['preload']>> = { home: HOME_PRELOAD, login: HOME_PRELOAD, 'reset-password': HOME_PRELOAD };

/** The pages of the contract's table whose head is the same for every visit: those without a parameter. */
export const STATIC_PAGES = PAGE_KEYS.filter((key) => !/[:*]/.test(PAGES[key].path));

const NOT_FOUND = { title: `Page not found · ${SITE}`, description: 'This page does not exist. Back to the store.' };

/** The head and status of a page path: 404 for any path the store does not know, and for unknown games and news. */
export async function pageHead(pathname: string, catalog: CatalogService, publicUrl: string, news?: NewsLookup): Promise<PageHead> {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const page = matchPage(path);
  if (!page) return { status: 404, ...NOT_FOUND, path };
  const { key, params } = page;
  const entry = pageModule(key);
  if (key === 'game') {
    try {
      return { ...gameHead(await catalog.game(params.id!), path, publicUrl), entry };
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 404) throw error;
      return { status: 404, ...NOT_FOUND, path };
    }
  }
  if (key === 'news-item') {
    const item = ID_PATTERN.test(params.id!) ? await news?.find(params.id!) : undefined;
    return item ? { ...newsHead(item, path, publicUrl), entry } : { status: 404, ...NOT_FOUND, path };
  }
  // Any other page is served as it is; a payment page checks its order itself, for its signed-in buyer.
  const { title, description, indexed } = PAGES[key];
  return { status: 200, title, description, path, entry, preload: PAGE_PRELOADS[key], noindex: !indexed };
}

/** A news item's head: its title, its first words as the description, its cover as the image. */
function newsHead(item: News, path: string, publicUrl: string): PageHead {
  return {
    status: 200,
    title: `${item.title} · ${SITE}`,
    description: item.content.replace(/\s+/g, ' ').slice(0, 155),
    path,
    type: 'website',
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
