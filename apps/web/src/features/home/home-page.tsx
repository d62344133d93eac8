import { CollectionCarousel } from './collection-carousel.tsx';
import { Metrics } from './metrics.tsx';
import { TopSales } from './top-sales.tsx';
import styles from './home-page.module.css';

/** Home (SPEC §2): the collections carousel, the store in numbers and 'Top sales'. */
export function HomePage() {
  return (
    <div className={styles.page}>
      <h1 className={styles.hidden}>Keystore: digital game keys</h1>
      <CollectionCarousel />
      <Metrics />
      <TopSales />
    </div>
  );
}
