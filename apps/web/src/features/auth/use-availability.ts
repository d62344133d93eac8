import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Availability } from '@keystore/contract';
import type { Problem } from '@keystore/contract/rules';
import { ApiError } from '../../lib/api.ts';
import { useDebounced } from '../../lib/use-debounced.ts';

/** Typing pauses this long before the server is asked whether a name is free. */
export const AVAILABILITY_DEBOUNCE_MS = 400;

interface AvailabilityCheck {
  /** The value as the server compares it (trimmed, lowercased for e-mails). */
  normalize: (value: string) => string;
  /** The rule that must hold before asking the server. */
  problem: (value: string) => Problem;
  ask: (value: string) => Promise<Availability>;
  taken: string;
  checkFailed: string;
}

/**
 * Whether a sign-up username or e-mail is still free, asked once typing pauses (SPEC §5). Answers
 * the message to show, if any, and `confirm` for the submit, which asks at once (or reuses the answer).
 */
export function useAvailability(kind: string, value: string, check: AvailabilityCheck) {
  const client = useQueryClient();
  const settled = check.normalize(useDebounced(value, AVAILABILITY_DEBOUNCE_MS));
  const current = check.normalize(value);
  const options = (candidate: string) =>
    queryOptions({ queryKey: ['availability', kind, candidate], queryFn: () => check.ask(candidate), retry: false, staleTime: 30_000 });
  const query = useQuery({ ...options(settled), enabled: settled !== '' && !check.problem(settled) });
  const messageFor = (answer: Availability | undefined, error: unknown): string | undefined => {
    // A 400 carries the server's rule message (a rule it knows and this form does not); anything else is a failed check.
    if (error) return error instanceof ApiError && error.status === 400 && error.fromServer ? error.message : check.checkFailed;
    return answer?.available === false ? check.taken : undefined;
  };

  return {
    /** The message for the value on screen; none while the user is still typing. */
    message: current === settled && query.isFetched ? messageFor(query.data, query.error) : undefined,
    available: current === settled && query.data?.available === true,
    /** The message for a value about to be submitted, asking the server if it has not answered for it yet. */
    confirm: async (candidate: string): Promise<string | undefined> => {
      try {
        return messageFor(await client.fetchQuery(options(check.normalize(candidate))), undefined);
      } catch (error) {
        return messageFor(undefined, error);
      }
    },
  };
}
