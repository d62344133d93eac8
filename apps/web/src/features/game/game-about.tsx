import type { Game } from '@keystore/contract';
import { DESCRIPTION_FALLBACK } from './game-info.ts';
import styles from './game-about.module.css';

const REQUIREMENTS = [
  ['os', 'OS'],
  ['processor', 'Processor'],
  ['memory', 'Memory'],
  ['graphics', 'Graphics'],
  ['storage', 'Storage'],
] as const;

/** About: the description (or a fallback) and the system requirements, when the product has any. */
export function GameAbout({ game }: { game: Pick<Game, 'description' | 'systemRequirements' | 'platform'> }) {
  const requirements = game.systemRequirements;
  return (
    <div className={styles.about}>
      <section aria-labelledby="about-title" className={styles.block}>
        <h2 id="about-title" className={styles.heading}>About</h2>
        <p className={styles.text}>{game.description?.trim() || DESCRIPTION_FALLBACK}</p>
      </section>
      <section aria-labelledby="requirements-title" className={styles.block}>
        <h2 id="requirements-title" className={styles.heading}>System requirements</h2>
        {requirements ? (
          <dl className={styles.rows}>
            {REQUIREMENTS.map(([field, label]) => (
              <div key={field} className={styles.row}>
                <dt>{label}</dt>
                <dd>{requirements[field]}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className={styles.text}>No system requirements beyond the platform: activate the key with your {game.platform} account.</p>
        )}
      </section>
    </div>
  );
}
