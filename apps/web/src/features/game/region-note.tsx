import { useQuery } from '@tanstack/react-query';
import { regionWarning, worksInText } from '@keystore/contract/activation-rules';
import { visitorPlaceQuery } from '../../lib/visitor-place.ts';
import styles from './purchase-panel.module.css';

/** Where the key works, and a warning before it goes in the cart when the visitor seems to be elsewhere (issue 31). */
export default function RegionNote({ region }: { region: string }) {
  const place = useQuery(visitorPlaceQuery);
  const warning = regionWarning(region, place.data?.country);
  return (
    <>
      <p className={styles.worksIn}>{worksInText(region)}</p>
      {warning && (
        <p className={styles.regionWarning} role="note">
          {warning}
        </p>
      )}
    </>
  );
}
