import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import type { AdminGame, AdminGamePatch } from '@keystore/contract';
import { priceOverrideProblem } from '@keystore/contract/admin-rules';
import { messageOf } from '../../lib/api.ts';
import { byRule } from '../../lib/form-rules.ts';
import { formatEuro } from '../../lib/money.ts';
import { showToast } from '../../ui/toasts.tsx';
import { AdminPage, AdminTable, Pager, Time } from './admin-ui.tsx';
import { gamesQuery, syncRunsQuery, usePatchGame, useStartSync } from './api.ts';
import { StoreSettings } from './store-settings.tsx';
import buttons from '../../ui/buttons.module.css';
import dataTable from '../../ui/data-table.module.css';
import styles from './admin.module.css';

/** Catalogue control: the supplier's sync runs and 'Sync now', the store's settings, and each game's visibility and price. */
export function AdminCataloguePage() {
  const runs = useQuery(syncRunsQuery());
  const sync = useStartSync();
  const start = () =>
    sync.mutate(undefined, {
      onSuccess: (answer) => showToast(answer.message),
      onError: (error) => showToast(messageOf(error, 'The sync did not start. Please try again.'), 'error'),
    });
  const syncNow = (
    <button type="button" className={buttons.primary} onClick={start} disabled={sync.isPending}>
      Sync now
    </button>
  );
  return (
    <AdminPage title="Catalogue" actions={syncNow}>
      <AdminTable
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
            <td className={dataTable.number}>{run.added}</td>
            <td className={dataTable.number}>{run.updated}</td>
            <td className={dataTable.number}>{run.unchanged}</td>
            <td className={dataTable.number}>{run.skipped}</td>
            <td className={dataTable.number}>{run.deactivated}</td>
            <td>{run.error ?? '—'}</td>
          </tr>
        ))}
      </AdminTable>
      {runs.isError && (
        <p className={`${styles.problem} ${styles.panel}`} role="alert">
          {messageOf(runs.error, 'Could not load the sync runs.')}
        </p>
      )}
      <StoreSettings />
      <GameList />
    </AdminPage>
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
        <button type="submit" className={buttons.primary}>
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
          <AdminTable
            caption="Games"
            captionHidden
            busy={games.isPlaceholderData}
            columns={['Game', { label: 'Stock', numeric: true }, { label: 'Supplier', numeric: true }, { label: 'Price', numeric: true }, 'Hidden', 'Featured', 'Price override']}
          >
            {games.data.items.map((game) => (
              <GameRow key={game._id} game={game} />
            ))}
          </AdminTable>
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
      <td className={dataTable.number}>{game.stock}</td>
      <td className={dataTable.number}>{formatEuro(game.supplierPrice)}</td>
      <td className={dataTable.number}>{formatEuro(game.price)}</td>
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
        <form className={buttons.actions} onSubmit={savePrice} noValidate>
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
          <button type="submit" className={`${buttons.secondary} ${buttons.small}`} disabled={patchGame.isPending}>
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
