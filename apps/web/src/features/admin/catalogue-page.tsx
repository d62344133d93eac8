import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import type { AdminGame, AdminGamePatch } from '@keystore/contract';
import { MARKUP_PERCENT_MAX, MARKUP_PERCENT_MIN, markupProblem, priceOverrideProblem } from '@keystore/contract/admin-rules';
import { messageOf } from '../../lib/api.ts';
import { COMMISSION_PERCENT_MAX, commissionFixedProblem, commissionPercentProblem, euroCents } from '@keystore/contract/seller-rules';
import { byRule } from '../../lib/form-rules.ts';
import { formatEuro } from '../../lib/money.ts';
import { showToast } from '../../ui/toasts.tsx';
import { AdminPage, DataTable, Pager, Time } from './admin-ui.tsx';
import { gamesQuery, settingsQuery, syncRunsQuery, usePatchGame, usePatchSettings, useStartSync } from './api.ts';
import styles from './admin.module.css';

/** Catalogue control: the supplier's sync runs and 'Sync now', the markup, and each game's visibility and price. */
export function AdminCataloguePage() {
  const runs = useQuery(syncRunsQuery());
  const sync = useStartSync();
  const start = () =>
    sync.mutate(undefined, {
      onSuccess: (answer) => showToast(answer.message),
      onError: (error) => showToast(messageOf(error, 'The sync did not start. Please try again.'), 'error'),
    });
  const syncNow = (
    <button type="button" className={styles.primary} onClick={start} disabled={sync.isPending}>
      Sync now
    </button>
  );
  return (
    <AdminPage title="Catalogue" actions={syncNow}>
      <DataTable
        caption="Supplier syncs"
        columns={[
          'Started',
          'Finished',
          'Outcome',
          { label: 'Added', numeric: true },
          { label: 'Updated', numeric: true },
          { label: 'Unchanged', numeric: true },
          { label: 'Skipped', numeric: true },
          { label: 'Deactivated', numeric: true },
          'Error',
        ]}
      >
        {(runs.data ?? []).map((run) => (
          <tr key={run.id}>
            <th scope="row"><Time iso={run.startedAt} /></th>
            <td>{run.finishedAt ? <Time iso={run.finishedAt} /> : '—'}</td>
            <td>
              <span className={styles.badge} data-tone={run.outcome === 'failed' ? 'bad' : run.outcome === 'succeeded' ? 'good' : undefined}>
                {run.outcome}
              </span>
            </td>
            <td className={styles.number}>{run.added}</td>
            <td className={styles.number}>{run.updated}</td>
            <td className={styles.number}>{run.unchanged}</td>
            <td className={styles.number}>{run.skipped}</td>
            <td className={styles.number}>{run.deactivated}</td>
            <td>{run.error ?? '—'}</td>
          </tr>
        ))}
      </DataTable>
      {runs.isError && (
        <p className={`${styles.problem} ${styles.panel}`} role="alert">
          {messageOf(runs.error, 'Could not load the sync runs.')}
        </p>
      )}
      <PricingForms />
      <GameList />
    </AdminPage>
  );
}

/** The store's pricing settings side by side: the markup over the supplier, and the sellers' default commission. */
function PricingForms() {
  const settings = useQuery(settingsQuery());
  if (!settings.data) return null;
  return (
    <div className={styles.grid}>
      <MarkupFields markupPercent={settings.data.markupPercent} />
      <CommissionFields percent={settings.data.sellerCommissionPercent} fixed={settings.data.sellerCommissionFixed} />
    </div>
  );
}

function MarkupFields({ markupPercent }: { markupPercent: number }) {
  const patch = usePatchSettings();
  const { register, handleSubmit, formState } = useForm<{ markup: string }>({ defaultValues: { markup: String(markupPercent) } });
  const problem = formState.errors.markup?.message;
  const save = handleSubmit(({ markup }) =>
    patch.mutate(
      { markupPercent: Number(markup) },
      {
        onSuccess: () => showToast('The markup applies from the next sync.'),
        onError: (error) => showToast(messageOf(error, 'The markup was not saved. Please try again.'), 'error'),
      },
    ),
  );
  return (
    <form className={styles.panel} onSubmit={save} noValidate aria-labelledby="markup-title">
      <h2 id="markup-title" className={styles.subtitle}>
        Markup
      </h2>
      <div className={styles.filters}>
      <div className={styles.field}>
        <label htmlFor="markup">
          Markup over the supplier’s price ({MARKUP_PERCENT_MIN}–{MARKUP_PERCENT_MAX} %)
        </label>
        <input
          id="markup"
          type="number"
          inputMode="decimal"
          step="0.1"
          {...register('markup', { validate: byRule(markupProblem) })}
          {...(problem ? { 'aria-invalid': true, 'aria-describedby': 'markup-error' } : {})}
        />
        {problem && (
          <span id="markup-error" className={styles.problem} role="alert">
            {problem}
          </span>
        )}
      </div>
        <button type="submit" className={styles.primary} disabled={patch.isPending}>
          Save markup
        </button>
      </div>
    </form>
  );
}

/** The commission every seller pays unless the owner set one for it (Sellers page): a percent of the net price plus a fixed amount. */
function CommissionFields({ percent, fixed }: { percent: number; fixed: number }) {
  const patch = usePatchSettings();
  const { register, handleSubmit, formState } = useForm<{ percent: string; fixed: string }>({ defaultValues: { percent: String(percent), fixed: fixed.toFixed(2) } });
  const { errors } = formState;
  const save = handleSubmit((fields) =>
    patch.mutate(
      { sellerCommissionPercent: Number(fields.percent.trim()), sellerCommissionFixed: euroCents(fields.fixed)! / 100 },
      {
        onSuccess: () => showToast('The default commission applies at once to sellers without one of their own.'),
        onError: (error) => showToast(messageOf(error, 'The commission was not saved. Please try again.'), 'error'),
      },
    ),
  );
  return (
    <form className={styles.panel} onSubmit={save} noValidate aria-labelledby="commission-title">
      <h2 id="commission-title" className={styles.subtitle}>
        Sellers’ default commission
      </h2>
      <div className={styles.filters}>
        <div className={styles.field}>
          <label htmlFor="commission-percent">Percent of the net price (0–{COMMISSION_PERCENT_MAX} %)</label>
          <input
            id="commission-percent"
            className={styles.price}
            type="number"
            inputMode="decimal"
            step="0.01"
            {...register('percent', { validate: byRule(commissionPercentProblem) })}
            {...(errors.percent ? { 'aria-invalid': true, 'aria-describedby': 'commission-percent-error' } : {})}
          />
          {errors.percent && (
            <span id="commission-percent-error" className={styles.problem} role="alert">
              {errors.percent.message}
            </span>
          )}
        </div>
        <div className={styles.field}>
          <label htmlFor="commission-fixed">Plus per key (€)</label>
          <input
            id="commission-fixed"
            className={styles.price}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            {...register('fixed', { validate: byRule(commissionFixedProblem) })}
            {...(errors.fixed ? { 'aria-invalid': true, 'aria-describedby': 'commission-fixed-error' } : {})}
          />
          {errors.fixed && (
            <span id="commission-fixed-error" className={styles.problem} role="alert">
              {errors.fixed.message}
            </span>
          )}
        </div>
        <button type="submit" className={styles.primary} disabled={patch.isPending}>
          Save commission
        </button>
      </div>
    </form>
  );
}

function GameList() {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const games = useQuery(gamesQuery(q, page));
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setQ(String(new FormData(event.currentTarget).get('q') ?? '').trim());
    setPage(1);
  };
  return (
    <section className={styles.page} aria-labelledby="games-title">
      <h2 id="games-title" className={styles.subtitle}>
        Games
      </h2>
      <form className={styles.filters} onSubmit={search} role="search" aria-label="Find games">
        <div className={styles.field}>
          <label htmlFor="games-q">Search games</label>
          <input id="games-q" name="q" type="search" defaultValue={q} />
        </div>
        <button type="submit" className={styles.primary}>
          Search
        </button>
      </form>
      {games.isError && (
        <p className={styles.problem} role="alert">
          {messageOf(games.error, 'Could not load the games.')}
        </p>
      )}
      {games.data && (
        <>
          <DataTable
            caption="Games"
            captionHidden
            busy={games.isPlaceholderData}
            columns={['Game', { label: 'Stock', numeric: true }, { label: 'Supplier', numeric: true }, { label: 'Price', numeric: true }, 'Hidden', 'Featured', 'Price override']}
          >
            {games.data.items.map((game) => (
              <GameRow key={game._id} game={game} />
            ))}
          </DataTable>
          {games.data.items.length === 0 && <p className={`${styles.muted} ${styles.panel}`}>No game matches.</p>}
          <Pager page={games.data.page} pageSize={games.data.pageSize} total={games.data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}

function GameRow({ game }: { game: AdminGame }) {
  const patchGame = usePatchGame();
  const { register, handleSubmit, formState } = useForm<{ price: string }>({ defaultValues: { price: game.priceOverride === null ? '' : String(game.priceOverride) } });
  const problem = formState.errors.price?.message;
  const fieldId = `price-${game._id}`;
  const save = (patch: AdminGamePatch, done: string) =>
    patchGame.mutate(
      { id: game._id, patch },
      {
        onSuccess: () => showToast(done),
        onError: (error) => showToast(messageOf(error, 'The game was not changed. Please try again.'), 'error'),
      },
    );
  const savePrice = handleSubmit(({ price }) =>
    save({ priceOverride: price.trim() === '' ? null : Number(price) }, price.trim() === '' ? `${game.title}: the supplier’s price applies.` : `${game.title}: price saved.`),
  );
  return (
    <tr>
      <th scope="row">
        {game.title} <span className={styles.muted}>{game.platform}</span>
      </th>
      <td className={styles.number}>{game.stock}</td>
      <td className={styles.number}>{formatEuro(game.supplierPrice)}</td>
      <td className={styles.number}>{formatEuro(game.price)}</td>
      <td>
        <label className={styles.check}>
          <input type="checkbox" checked={game.hidden} disabled={patchGame.isPending} onChange={(event) => save({ hidden: event.target.checked }, `${game.title}: ${event.target.checked ? 'hidden' : 'shown'}.`)} />
          <span className="visually-hidden">Hide {game.title}</span>
        </label>
      </td>
      <td>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={game.featured}
            disabled={patchGame.isPending}
            onChange={(event) => save({ featured: event.target.checked }, `${game.title}: ${event.target.checked ? 'featured' : 'not featured'}.`)}
          />
          <span className="visually-hidden">Feature {game.title}</span>
        </label>
      </td>
      <td>
        <form className={styles.actions} onSubmit={savePrice} noValidate>
          <label htmlFor={fieldId} className="visually-hidden">
            Price override for {game.title} (euro; empty for the supplier’s price)
          </label>
          <span className={styles.field}>
            <input
              id={fieldId}
              className={styles.price}
              type="number"
              inputMode="decimal"
              step="0.01"
              min="0"
              {...register('price', { validate: byRule(priceOverrideProblem) })}
              {...(problem ? { 'aria-invalid': true, 'aria-describedby': `${fieldId}-error` } : {})}
            />
          </span>
          <button type="submit" className={`${styles.secondary} ${styles.small}`} disabled={patchGame.isPending}>
            Save
          </button>
          {problem && (
            <span id={`${fieldId}-error`} className={styles.problem} role="alert">
              {problem}
            </span>
          )}
        </form>
      </td>
    </tr>
  );
}
