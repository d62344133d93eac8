import { Link } from 'react-router';
import { COMPANY, LEGAL_UPDATED, SUPPORT_HOURS } from './legal-facts.ts';
import { LegalPage, SupportEmail, type LegalSection } from './legal-page.tsx';

const SECTIONS: LegalSection[] = [
  {
    id: 'about-us',
    title: 'About us',
    body: (
      <p>
        Keystore is run by {COMPANY}, a private limited company registered in England and Wales ("we", "us"). You can reach us at <SupportEmail />.
        These terms apply to every visit to the store and every purchase made in it. Please read them before you buy; by placing an order you accept
        them.
      </p>
    ),
  },
  {
    id: 'eligibility',
    title: 'Who may use Keystore',
    body: (
      <>
        <p>
          Keystore is for <strong>adults aged 18 or over</strong> only. By creating an account or placing an order you confirm that you are at least
          18 years old and able to enter into a binding contract. We may ask for confirmation of age and may close an account, cancel an order and
          refund it when we have reason to believe that the buyer is under 18.
        </p>
        <p>
          Some games carry a PEGI rating, shown on their page. You are responsible for making sure that a game is suitable for anyone you let play it.
        </p>
      </>
    ),
  },
  {
    id: 'what-we-sell',
    title: 'What we sell',
    body: (
      <>
        <p>
          We sell digital activation keys for games, downloadable content (DLC) and gift cards for PC and console platforms such as Steam, GOG,
          Origin, Xbox, PlayStation and Nintendo. A key is a code that you redeem on the platform named on the product page; the game or credit is
          then provided by that platform, under that platform's own terms. We are a reseller: we are not the publisher or developer of the games,
          and we do not run the platforms.
        </p>
        <p>
          Each product page names the platform and the region in which the key can be activated. A key for one region may not work in another.
          Please check both before you buy.
        </p>
      </>
    ),
  },
  {
    id: 'product-information',
    title: 'Product information and availability',
    body: (
      <p>
        Product data (titles, descriptions, images, platforms, regions, prices and stock) comes from the API of our external key supplier and is{' '}
        <strong>refreshed every 4 hours</strong>. Between two refreshes a detail may change or a product may sell out. If a product you paid for can
        no longer be supplied, we tell you by e-mail and refund the full amount.
      </p>
    ),
  },
  {
    id: 'prices-and-payment',
    title: 'Prices and payment',
    body: (
      <>
        <ul>
          <li>
            All prices are shown and charged in <strong>euros (EUR, €)</strong> and include any VAT that applies. If your card is in another currency,
            your bank may add a conversion fee.
          </li>
          <li>Our prices are the supplier's price plus a small markup, which pays for running the store, delivery and support.</li>
          <li>
            Every purchase is a <strong>one-time payment</strong>. There are no subscriptions and no recurring charges.
          </li>
          <li>
            We accept <strong>Visa and Mastercard</strong>. Payments are processed by our payment provider; we never see or store your full card
            number.
          </li>
          <li>The price that applies is the one shown in your cart when you place the order.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'orders',
    title: 'Your account and your orders',
    body: (
      <>
        <p>
          You need an account with a confirmed e-mail address to buy. Keep your password to yourself; when you sign in from a new IP address we send a
          6-digit code to your e-mail address to confirm it is you. Tell us at once if you think someone else has used your account.
        </p>
        <p>
          Placing an order is an offer to buy. The contract between you and us is formed when your payment is confirmed. We may refuse or cancel an
          order, with a full refund, when a price was shown in obvious error or when we reasonably suspect fraud.
        </p>
      </>
    ),
  },
  {
    id: 'delivery',
    title: 'Delivery',
    body: (
      <p>
        Keys are delivered to the Library of your account and by e-mail. Most keys arrive within minutes of payment; delivery takes{' '}
        <strong>up to 1 business day</strong>. Business days are Monday to Friday, except public holidays in England. If a key has not arrived after 1
        business day, contact support.
      </p>
    ),
  },
  {
    id: 'cancellation',
    title: 'Your right to cancel',
    body: (
      <p>
        The law normally gives you 14 days to cancel a purchase made online. For digital content this right ends once delivery has started with your
        agreement. When you place an order you ask us to deliver the key straight away and acknowledge that you lose the right to cancel once the key
        has been delivered to you. This does not affect your right to a refund when a key is not delivered or does not work, described below.
      </p>
    ),
  },
  {
    id: 'refunds',
    title: 'Refunds',
    body: (
      <>
        <p>
          If you have not received your key, you can ask for a refund <strong>within 30 days</strong> of the purchase. Write to <SupportEmail /> with
          your order number. Once we have confirmed the non-delivery, the refund is processed <strong>within 7 business days</strong> to the card you
          paid with; your bank may take a few more days to show it.
        </p>
        <p>
          If a key we delivered does not work, tell us with the error message the platform showed. We will replace the key or, if we cannot, refund
          it. Your statutory rights as a consumer, including those under the Consumer Rights Act 2015, are not affected by these terms.
        </p>
        <p>A key that has been revealed and redeemed successfully cannot be refunded because you changed your mind.</p>
      </>
    ),
  },
  {
    id: 'using-keys',
    title: 'Using your keys',
    body: (
      <p>
        Keys are sold for your own use or as a gift. You may not resell them or use them commercially. Once redeemed, a key is bound to the platform
        account that redeemed it, and that platform's terms apply to the game or credit.
      </p>
    ),
  },
  {
    id: 'support',
    title: 'Support',
    body: (
      <>
        <p>
          Our support team works <strong>{SUPPORT_HOURS}</strong>, every day. Write to <SupportEmail />, use the form on the{' '}
          <Link to="/support">Support</Link> page, or start a live chat there.
        </p>
        <p>
          We answer every message <strong>within 24 hours</strong>, and most issues are resolved <strong>within 5 business days</strong>.
        </p>
      </>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <p>
        Do not use the store for fraud, with a card you are not allowed to use, to test stolen card details, or to harm the store or other customers
        (for example by automated scraping, attacks or attempts to get around security checks). We may suspend or close an account used in these ways
        and cancel its open orders.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Our responsibility to you',
    body: (
      <>
        <p>
          We are responsible for loss you suffer that is a foreseeable result of our breaking these terms or failing to use reasonable care. We are not
          responsible for the games themselves, for the platforms on which keys are redeemed, or for loss caused by events outside our control.
        </p>
        <p>
          Nothing in these terms limits our liability for death or personal injury caused by our negligence, for fraud, or for anything else the law
          does not allow us to limit. Otherwise our liability for an order is limited to the amount you paid for it.
        </p>
      </>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may update these terms, for example when the law or the store changes. The version shown when you place an order applies to that order. The
        date at the top of this page shows when the terms last changed.
      </p>
    ),
  },
  {
    id: 'law',
    title: 'Law and disputes',
    body: (
      <p>
        These terms are governed by the law of England and Wales. If a dispute cannot be settled with our support team, you may bring it before the
        courts of England and Wales; if you live in Scotland or Northern Ireland you may also use your local courts, and if you live in the European
        Union you keep the protection of the mandatory consumer law of your country.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        {COMPANY}, registered in England and Wales. E-mail: <SupportEmail />. Support hours: {SUPPORT_HOURS}. See also our{' '}
        <Link to="/privacy-policy">Privacy Policy</Link> and <Link to="/cookie-policy">Cookie Policy</Link>.
      </p>
    ),
  },
];

/** The terms and conditions of sale (SPEC §1, §2 legal pages). */
export function TermsPage() {
  return (
    <LegalPage
      title="Terms & Conditions"
      updated={LEGAL_UPDATED}
      intro={
        <p>
          These terms explain who we are, what you buy from us, how prices, payment, delivery and refunds work, and what you and we can expect from
          each other.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
