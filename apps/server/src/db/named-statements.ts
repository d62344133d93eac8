// Every query with a few parameters the app sends is a named statement (decision 026): PostgreSQL
// parses it once per connection and, once it has seen it run a few times, reuses its plan. On the
// purchase path that halved PostgreSQL's CPU per statement (80 µs to 34 µs, measured) and saved the
// node process a fifth of its work per query. Node-postgres does this for a query given a name;
// this client gives one to the others, as postgres.js and pgx do by default.
import pg from 'pg';

/**
 * At most this many distinct statements are named (per process, so per connection too): the app
 * sends a few hundred, and a query whose text varies without end stops being named once the cap is
 * reached, rather than filling each connection's memory.
 */
const MAX_NAMED = 500;
/**
 * A statement with more parameters than this goes unnamed: its text varies with the number of rows or
 * ids it carries (a sync's page of products, a long list of ids), it runs rarely, and its plan held per
 * connection would cost hundreds of kilobytes each (measured: ~350 KB for 2,000 parameters). An
 * order of one or two lines (about 40 parameters) stays named.
 */
const MAX_PARAMETERS = 64;

/** The name each statement text goes by: the same on every connection, so each prepares it once. */
const names = new Map<string, string>();
let generation = 0;
const nextName = () => `ks_${(generation++).toString(36)}`;

/** The name for a statement's text, or undefined once the cap is reached. */
function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = nextName();
    names.set(text, name);
  }
  return name;
}

/**
 * A prepared statement whose result columns changed under it (a migration run by another instance)
 * fails, on each connection that prepared it, for the queries already sent under its name: the text
 * then gets a new name (once, whichever of them fails first), so the next use prepares it afresh.
 */
function forgetStaleStatement(text: string, name: string, error: unknown): void {
  // PostgreSQL's routine, not its message, which follows the server's lc_messages.
  if ((error as { routine?: string } | undefined)?.routine === 'RevalidateCachedQuery' && names.get(text) === name) names.set(text, nextName());
}

type QueryConfig = Partial<pg.QueryConfig> & { submit?: unknown; callback?: unknown };

type Callback = (error: Error | null, result?: unknown) => void;

/** A pg.Client that names every parameterised query: give it to a pool as its `Client`. */
export class NamingClient extends pg.Client {}

const plainQuery = pg.Client.prototype.query as (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown;

// Set on the prototype rather than declared in the class: pg's query has a dozen overloads, which an
// override would have to restate; this one takes them all and changes only what it names.
(NamingClient.prototype as unknown as { query: typeof plainQuery }).query = function (this: pg.Client, config, values, callback) {
  // Only a query given as text or as a plain config, with a few parameters and no name of its own:
  // streams and cursors (objects that submit themselves), and simple statements, go as they are.
  const given: QueryConfig | undefined = typeof config === 'string' ? { text: config } : (config as QueryConfig | null) ?? undefined;
  const parameters = Array.isArray(values) ? values : given?.values;
  if (!given || typeof given.submit === 'function' || given.name !== undefined || typeof given.text !== 'string' || !parameters?.length || parameters.length > MAX_PARAMETERS) {
    return plainQuery.call(this, config, values, callback);
  }
  const text = given.text;
  const name = statementName(text);
  if (name === undefined) return plainQuery.call(this, config, values, callback);
  const named = { ...given, name };
  const done = typeof values === 'function' ? (values as Callback) : typeof callback === 'function' ? (callback as Callback) : undefined;
  if (done) {
    const rest = typeof values === 'function' ? [] : [values];
    return plainQuery.call(this, named, ...rest, (error: Error | null, result?: unknown) => {
      if (error) forgetStaleStatement(text, name, error);
      done(error, result);
    });
  }
  // A config carrying its own callback answers through it, not a promise.
  const answer = plainQuery.call(this, named, values);
  if (!(answer instanceof Promise)) return answer;
  return answer.catch((error: unknown) => {
    forgetStaleStatement(text, name, error);
    throw error;
  });
};
