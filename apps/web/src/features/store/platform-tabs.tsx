import { PLATFORM_GROUPS } from '@keystore/contract/constants';
import styles from './store-page.module.css';

/**
 * The platform tabs (SPEC §2): All, PC, XBOX, PSN, Nintendo. A tab is active when any platform of its
 * group is selected; choosing one replaces the platform filter with that group.
 */
export function PlatformTabs({ selected, onSelect }: { selected: readonly string[]; onSelect: (platforms: string[]) => void }) {
  return (
    <div className={styles.tabs} role="group" aria-label="Platforms">
      <button type="button" className={styles.tab} aria-pressed={selected.length === 0} onClick={() => onSelect([])}>
        All
      </button>
      {PLATFORM_GROUPS.map((group) => (
        <button
          key={group.label}
          type="button"
          className={styles.tab}
          aria-pressed={group.platforms.some((platform) => selected.includes(platform))}
          onClick={() => onSelect([...group.platforms])}
        >
          {group.label}
        </button>
      ))}
    </div>
  );
}
