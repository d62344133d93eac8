import { Link } from 'react-router';
import { COMPANY, LEGAL_UPDATED } from './legal-facts.ts';
import { LegalPage, LegalTable, SupportEmail, type LegalSection } from './legal-page.tsx';

const SECTIONS: LegalSection[] = [
  {
    id: 'controller',
    title: 'Who is responsible for your data',
    body: (
      <p>
        {COMPANY}, a private limited company registered in England and Wales, runs Keystore and is the controller of the personal data described here.
        For anything about your data, write to <SupportEmail /> with "Privacy" in the subject.
      </p>
    ),
  },
  {
    id: 'what-we-collect',
    title: 'What we collect',
    body: (
      <ul>
        <li>
          <strong>Account data</strong>: your e-mail address, username, password (stored only as a one-way argon2 hash, never in readable form), the
          date you joined and, if you upload one, your profile picture.
        </li>
        <li>
          <strong>Order history</strong>: the products you bought, quantities, amounts in euro, dates, payment status, delivery status and the keys
          delivered to you (stored encrypted).
        </li>
        <li>
          <strong>IP addresses for new-device checks</strong>: the IP address of each sign-in, compared with the addresses your account has already
          confirmed. A sign-in from a new address triggers a 6-digit code sent to your e-mail.
        </li>
        <li>
          <strong>Session id</strong>: a random identifier created in your browser on your first visit and sent with each request, so that visitors
          without an account can keep a cart and see which notifications they have read. It does not contain your name or e-mail.
        </li>
        <li>
          <strong>Support messages</strong>: the e-mail address, name, title and text you send through the support form, and the messages of a live
          chat.
        </li>
        <li>
          <strong>Technical data</strong>: server logs of requests (IP address, time, page requested, browser type), kept to run and protect the
          store.
        </li>
        <li>
          <strong>Your cookie choice</strong>: the consent status, its random consent ID and its date, kept in your browser.
        </li>
      </ul>
    ),
  },
  {
    id: 'why-and-legal-bases',
    title: 'Why we use it, and on what legal basis',
    body: (
      <>
        <p>
          We process personal data under the UK General Data Protection Regulation (UK GDPR) and the Data Protection Act 2018, and, for customers in
          the European Union, the EU General Data Protection Regulation (GDPR). Each use rests on one of the legal bases of Article 6(1):
        </p>
        <LegalTable
          caption="Purposes and legal bases"
          head={['Purpose', 'Data used', 'Legal basis']}
          rows={[
            ['Creating and running your account', 'Account data, session id', 'Contract, Art. 6(1)(b)'],
            ['Taking payment and delivering keys', 'Account data, order history', 'Contract, Art. 6(1)(b)'],
            ['New-device checks and fraud prevention', 'IP addresses, technical data', 'Legitimate interests in keeping accounts safe, Art. 6(1)(f)'],
            ['Answering support requests', 'Support messages, account data', 'Contract, Art. 6(1)(b), or legitimate interests, Art. 6(1)(f)'],
            ['Keeping accounting and tax records', 'Order history', 'Legal obligation, Art. 6(1)(c)'],
            ['Visit statistics', 'Statistics cookies (only with your consent)', 'Consent, Art. 6(1)(a)'],
          ]}
        />
        <p>We do not sell your personal data, we do not use it for advertising, and we make no decisions about you by automated means alone.</p>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <ul>
        <li>Account data: for as long as your account exists, and deleted within 30 days after you delete your account.</li>
        <li>Order and payment records: 6 years after the end of the financial year of the order, as UK tax and company law requires.</li>
        <li>IP addresses confirmed for your account: until you delete your account.</li>
        <li>Server logs: 30 days.</li>
        <li>Support messages and chats: 2 years after the last message of the conversation.</li>
        <li>Session id and cookie choice: in your browser until you clear its storage; a cookie choice counts for 365 days.</li>
      </ul>
    ),
  },
  {
    id: 'processors',
    title: 'Who we share it with',
    body: (
      <>
        <p>We share personal data only with service providers that process it for us under a written contract, and only as far as each needs:</p>
        <ul>
          <li>
            <strong>Payment provider</strong>: processes your Visa or Mastercard payment. It receives your card details directly from you and also acts
            as an independent controller for its own fraud-prevention and legal duties.
          </li>
          <li>
            <strong>E-mail provider</strong>: sends confirmation codes, password-reset links, receipts and keys.
          </li>
          <li>
            <strong>Hosting provider</strong>: runs the servers and the database of the store.
          </li>
          <li>
            <strong>AI provider</strong>: where the live chat or news drafts are answered by an external AI model, the text of the chat is sent to it.
            Please do not type card details or passwords into the chat.
          </li>
          <li>
            <strong>Analytics provider</strong>: only if you allow statistics cookies (see the <Link to="/cookie-policy">Cookie Policy</Link>).
          </li>
        </ul>
        <p>
          Our key supplier receives the products and quantities we buy, never your personal data. We disclose data to authorities only where the law
          requires it.
        </p>
      </>
    ),
  },
  {
    id: 'transfers',
    title: 'Transfers outside the UK and the EEA',
    body: (
      <p>
        Where a provider processes data outside the UK or the European Economic Area, we make sure the transfer is protected by adequacy regulations or
        by the UK International Data Transfer Agreement or the EU Standard Contractual Clauses.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    body: (
      <>
        <p>You have the right to:</p>
        <ul>
          <li>access the personal data we hold about you and receive a copy of it;</li>
          <li>have inaccurate data corrected;</li>
          <li>
            have your data erased: you can delete your account yourself on your <Link to="/profile">Profile</Link>;
          </li>
          <li>restrict or object to processing based on our legitimate interests;</li>
          <li>receive the data you gave us in a portable, machine-readable format;</li>
          <li>withdraw a consent at any time, without affecting what was done before.</li>
        </ul>
        <p>
          Write to <SupportEmail />. We answer within one month. If you are not satisfied, you may complain to the Information Commissioner's Office
          (ico.org.uk) or, in the European Union, to the data protection authority of your country.
        </p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'How we protect it',
    body: (
      <p>
        Connections to the store are encrypted, passwords are stored only as argon2 hashes, delivered keys are encrypted at rest, and a sign-in from a new
        IP address requires a code sent to your e-mail. Access to personal data is limited to the staff who need it.
      </p>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    body: <p>Keystore is for adults aged 18 or over. We do not knowingly collect data from anyone younger; if we learn we have, we delete it.</p>,
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        When this policy changes, we update the date at the top of the page, and we tell account holders by e-mail of any change that matters to them.
      </p>
    ),
  },
];

/** How the store uses personal data (SPEC §2 legal pages), under the UK GDPR and the GDPR. */
export function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated={LEGAL_UPDATED}
      intro={
        <p>
          This policy explains what personal data {COMPANY} collects when you use Keystore, why, on what legal basis, how long we keep it, who we share
          it with and which rights you have.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
