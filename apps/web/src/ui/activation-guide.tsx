import type { ActivationGuide as Guide } from '@keystore/contract/activation-rules';
import styles from './activation-guide.module.css';

/** How to activate a key (issue 31): the launcher, its steps and the official redeem page. */
export function ActivationGuide({ guide, id = 'activation' }: { guide: Guide; id?: string }) {
  return (
    <section className={styles.guide} aria-labelledby={`${id}-title`} id={id}>
      <h2 id={`${id}-title`} className={styles.heading}>
        How to activate on {guide.launcher}
      </h2>
      <GuideSteps guide={guide} />
    </section>
  );
}

/** The guide folded under its title, beside a key (the library, an order's or a gift's page, the problem report). */
export function FoldedActivationGuide({ guide }: { guide: Guide }) {
  return (
    <details className={styles.folded}>
      <summary>How to activate on {guide.launcher}</summary>
      <GuideSteps guide={guide} />
    </details>
  );
}

function GuideSteps({ guide }: { guide: Guide }) {
  return (
    <>
      <ol className={styles.steps}>
        {guide.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <a className={styles.redeem} href={guide.redeemUrl} target="_blank" rel="noopener noreferrer">
        Open the {guide.launcher} redeem page
      </a>
    </>
  );
}
