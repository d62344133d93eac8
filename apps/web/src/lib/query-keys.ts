/**
 * The query keys that more than one feature reads or changes (the library, the profile, the pay page,
 * checkout): one spelling, so a mutation's invalidation reaches every reader. A key only its own
 * feature uses stays in that feature's api.ts.
 */
export const queryKeys = {
  order: (orderId: string) => ['order', orderId] as const,
  /** The signed-in customer's profile, with its order history and totals (['profile', token]). */
  profile: ['profile'] as const,
  /** The signed-in customer's delivered keys. */
  purchases: ['purchases'] as const,
};
