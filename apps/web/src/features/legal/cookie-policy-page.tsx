import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { appConfigQuery, COOKIE_CONSENT_DAYS } from '../../lib/consent.ts';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';
import { ConsentStatus } from './consent-status.tsx';
import { COMPANY, LEGAL_UPDATED } from './legal-facts.ts';
import { LegalPage, LegalTable, SupportEmail, type LegalSection } from './legal-page.tsx';

const HEAD = ['Name', 'Provider', 'Purpose', 'Expiry', 'Type'] as const;
const LOCAL = 'Local storage';

/** Which analytics service is configured, so the statistics table says whether any of it applies. */
function AnalyticsService() {
  const config = useQuery(appConfigQuery);
  if (config.isPending) return <p>Checking which analytics service is configured…</p>;
  const url = config.data?.analyticsScriptUrl;
  if (!url) return <p>No analytics service is configured at the moment, so none of these cookies are set, whatever you choose.</p>;
  return (
    <p>
      The analytics service in use is loaded from <strong>{new URL(url, location.origin).host}</strong>. Which of the cookies below it sets depends on
      that service.
    </p>
  );
}

const SECTIONS: LegalSection[] = [
  {
    id: 'what-are-cookies',
    title: 'What cookies are',
    body: (
      <p>
        Cookies are small files a website stores in your browser. Local storage is a similar space in your browser that only our own pages can read. This
        policy covers both, and we call them "cookies" for short. Cookies set by our own site are first-party; cookies set by another service that we load
        are third-party.
      </p>
    ),
  },
  {
    id: 'consent',
    title: 'How we ask for your consent',
    body: (
      <>
        <p>On your first visit we ask you to choose. Until you do, only necessary storage is used and no statistics are collected. You can:</p>
        <ul>
          <li>
            <strong>Deny</strong>: only necessary storage (recorded as "necessary");
          </li>
          <li>
            <strong>Allow selection</strong>: necessary storage plus the categories you switched on (recorded as "custom");
          </li>
          <li>
            <strong>Allow all</strong>: necessary, statistics and preferences (recorded as "all").
          </li>
        </ul>
        <p>
          Your choice is kept with a random consent ID and its date for {COOKIE_CONSENT_DAYS} days; after that we ask again. Change it at any time with the
          cookie button at the bottom left of every page or with "Change your consent" above.
        </p>
        <p>
          <strong>Withdrawing your consent</strong> sets it back to necessary only, exactly as if you had chosen "Deny": the analytics script is removed
          from the page and the cookies it set are deleted. You can give consent again whenever you like.
        </p>
      </>
    ),
  },
  {
    id: 'necessary',
    title: 'Necessary',
    body: (
      <>
        <p>These are needed for the store to work and cannot be switched off. They are not used to track you and are never shared.</p>
        <LegalTable
          caption="Necessary storage"
          head={HEAD}
          rows={[
            [<code>{STORAGE_KEYS.token}</code>, 'Keystore', 'Keeps you signed in: the sign-in token sent with your requests.', 'Until you log out', LOCAL],
            [<code>{STORAGE_KEYS.sessionId}</code>, 'Keystore', 'A random session id that lets visitors without an account keep a cart and notifications.', 'Until you clear your browser storage', LOCAL],
            [<code>{STORAGE_KEYS.cart}</code>, 'Keystore', 'The products in your cart and their quantities.', 'Until you empty the cart or clear your browser storage', LOCAL],
            [<code>{STORAGE_KEYS.readNotifications}</code>, 'Keystore', 'Which public notifications you have already read.', 'Until you clear your browser storage', LOCAL],
            [<code>{STORAGE_KEYS.cookieConsent}</code>, 'Keystore', 'Your cookie choice, its consent ID and date.', `${COOKIE_CONSENT_DAYS} days`, LOCAL],
          ]}
        />
      </>
    ),
  },
  {
    id: 'statistics',
    title: 'Statistics',
    body: (
      <>
        <p>
          Only with your consent, we load an analytics script that counts visits and shows which pages are used, so we can improve the store. The
          statistics are aggregated; we do not use them to identify you or for advertising.
        </p>
        <AnalyticsService />
        <LegalTable
          caption="Statistics cookies"
          head={HEAD}
          rows={[
            [<code>_ga</code>, 'Google Analytics (third party)', 'Tells visits from different browsers apart with a random id.', '2 years', 'HTTP cookie'],
            [<code>_ga_*</code>, 'Google Analytics (third party)', 'Keeps the state of the current visit.', '2 years', 'HTTP cookie'],
            [<code>_gid</code>, 'Google Analytics (third party)', 'Tells visits apart within one day.', '24 hours', 'HTTP cookie'],
            [<code>_pk_id.*</code>, 'Matomo (third party)', 'Tells visits from different browsers apart with a random id.', '13 months', 'HTTP cookie'],
            [<code>_pk_ses.*</code>, 'Matomo (third party)', 'Groups the pages of one visit.', '30 minutes', 'HTTP cookie'],
          ]}
        />
      </>
    ),
  },
  {
    id: 'preferences',
    title: 'Preferences',
    body: (
      <p>
        Preference storage remembers settings you choose on this device. Keystore sets no preference cookies at present: allowing this category changes
        nothing today. Before we add one, we will list it here, and it will only be used if you have allowed Preferences.
      </p>
    ),
  },
  {
    id: 'browser-settings',
    title: 'Managing cookies in your browser',
    body: (
      <p>
        Your browser lets you see and delete cookies and local storage for each site, and block them altogether. If you block necessary storage, you
        cannot sign in or keep a cart. Clearing your browser storage also clears your cookie choice, and we will ask again on your next visit.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Changes and contact',
    body: (
      <p>
        {COMPANY} updates this policy when the cookies we use change; the date at the top shows the latest version. Questions: <SupportEmail />. How we
        handle personal data in general is explained in our <Link to="/privacy-policy">Privacy Policy</Link>.
      </p>
    ),
  },
];

/** Which cookies the store uses, with the visitor's consent and the means to change or withdraw it (SPEC §2 legal pages). */
export function CookiePolicyPage() {
  return (
    <LegalPage
      title="Cookie Policy"
      updated={LEGAL_UPDATED}
      intro={<p>This policy explains which cookies and similar storage Keystore uses, why, for how long, and how you control them.</p>}
      aside={<ConsentStatus />}
      sections={SECTIONS}
    />
  );
}
