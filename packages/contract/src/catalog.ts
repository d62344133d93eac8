import { z } from 'zod';
import {
  DEFAULT_SORT,
  MAX_PAGE_SIZE,
  MAX_SEARCH_LENGTH,
  SORTS,
  STORE_PAGE_SIZE,
} from './constants.ts';
import { LAUNCHERS } from './activation-rules.ts';
import { idField, safeText } from './fields.ts';
import { catalogMessages } from './messages.ts';

export const errorSchema = z
  .object({
    error: z.string(),
    /** A 5xx answer's request id (its `x-request-id`), for the store's logs: what to quote to support. */
    reference: z.string().optional(),
  })
  .meta({ id: 'Error' });
export type ErrorAnswer = z.infer<typeof errorSchema>;

export const systemRequirementsSchema = z
  .object({
    os: z.string(),
    processor: z.string(),
    memory: z.string(),
    graphics: z.string(),
    storage: z.string(),
  })
  .meta({ id: 'SystemRequirements' });
export type SystemRequirements = z.infer<typeof systemRequirementsSchema>;

/** A game as the catalogue lists it (cards, search results). Money in euro. */
export const gameListItemSchema = z
  .object({
    _id: z.string(),
    title: z.string(),
    image: z.string(),
    coverImage: z.string(),
    platform: z.string(),
    price: z.number(),
    originalPrice: z.number().nullable(),
    type: z.string(),
    genre: z.array(z.string()),
    region: z.string(),
    languages: z.array(z.string()),
    pegi: z.number(),
    stock: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'GameListItem' });
export type GameListItem = z.infer<typeof gameListItemSchema>;

export const activationGuideSchema = z
  .object({ launcher: z.enum(LAUNCHERS), steps: z.array(z.string()), redeemUrl: z.string() })
  .meta({ id: 'ActivationGuide', description: 'Where and how a key is activated: the launcher, the steps, and the official redeem page' });

/** A game with everything the detail page shows. */
export const gameSchema = gameListItemSchema
  .extend({
    description: z.string().nullable(),
    systemRequirements: systemRequirementsSchema.nullable(),
    releaseDate: z.string().nullable(),
    /** How to activate its key (issue 31). */
    activation: activationGuideSchema,
  })
  .meta({ id: 'Game' });
export type Game = z.infer<typeof gameSchema>;

export const facetEntrySchema = z.object({ value: z.string(), count: z.number().int() });
export type FacetEntry = z.infer<typeof facetEntrySchema>;
export const facetsSchema = z
  .object({
    category: z.array(facetEntrySchema),
    platform: z.array(facetEntrySchema),
    genre: z.array(facetEntrySchema),
    region: z.array(facetEntrySchema),
    language: z.array(facetEntrySchema),
  })
  .meta({ id: 'Facets' });
export type Facets = z.infer<typeof facetsSchema>;

const searchText = safeText().trim().max(MAX_SEARCH_LENGTH, catalogMessages.searchTooLong);
const commaList = safeText().max(2000).optional();

export const gameListQuerySchema = z.object({
  search: searchText.optional(),
  sort: z.enum(SORTS, { error: catalogMessages.unknownSort }).default(DEFAULT_SORT),
  page: z.coerce.number({ error: catalogMessages.invalidPage }).int(catalogMessages.invalidPage).min(1, catalogMessages.invalidPage).default(1),
  pageSize: z.coerce
    .number({ error: catalogMessages.invalidPageSize })
    .int(catalogMessages.invalidPageSize)
    .min(1, catalogMessages.invalidPageSize)
    .default(STORE_PAGE_SIZE)
    .transform((size) => Math.min(size, MAX_PAGE_SIZE)),
  category: commaList,
  platform: commaList,
  genre: commaList,
  region: commaList,
  language: commaList,
});
export type GameListQuery = z.infer<typeof gameListQuerySchema>;

export const gameListAnswerSchema = z
  .object({
    items: z.array(gameListItemSchema),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    facets: facetsSchema,
  })
  .meta({ id: 'GameList' });
export type GameListAnswer = z.infer<typeof gameListAnswerSchema>;

export const searchQuerySchema = z.object({
  query: safeText(catalogMessages.queryRequired).trim().min(1, catalogMessages.queryRequired).max(MAX_SEARCH_LENGTH, catalogMessages.searchTooLong),
});

export const quickSearchHitSchema = z
  .object({ _id: z.string(), title: z.string(), platform: z.string() })
  .meta({ id: 'QuickSearchHit' });
export type QuickSearchHit = z.infer<typeof quickSearchHitSchema>;

export const gameIdParamsSchema = z.object({ id: idField(catalogMessages.gameNotFound) });
