import styles from './profile-page.module.css';

/** The profile's shape while the stored session is checked, so nothing moves when it arrives. */
export function ProfileSkeleton() {
  return (
    <div className={styles.page} aria-busy="true">
      <span className="visually-hidden" role="status">
        Loading your profile
      </span>
      <div className={`${styles.bone} ${styles.titleBone}`} />
      <div className={`${styles.bone} ${styles.summaryBone}`} />
      <div className={styles.columns}>
        <div className={`${styles.bone} ${styles.ordersBone}`} />
        <div className={`${styles.bone} ${styles.settingsBone}`} />
      </div>
    </div>
  );
}
