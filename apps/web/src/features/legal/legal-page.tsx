import type { ReactNode } from 'react';
import { supportEmail } from '../../lib/store-facts.ts';
import styles from './legal-page.module.css';

/** One numbered part of a legal text; `id` is its anchor in the table of contents. */
export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

interface LegalPageProps {
  title: string;
  /** When the text last changed, as shown to the reader ("22 November 2026"). */
  updated: string;
  intro: ReactNode;
  sections: readonly LegalSection[];
  /** Content shown between the introduction and the sections (the cookie policy's consent panel). */
  aside?: ReactNode;
}

/** The shared frame of the legal pages: heading, date, introduction, table of contents and numbered sections. */
export function LegalPage({ title, updated, intro, sections, aside }: LegalPageProps) {
  return (
    <article className={styles.page} aria-labelledby="legal-title">
      {/* React 19 moves this into <head> while the page is shown. */}
      <title>{`${title} · Keystore`}</title>
      <header className={styles.header}>
        <h1 id="legal-title" className={styles.title}>
          {title}
        </h1>
        <p className={styles.updated}>Last updated: {updated}</p>
      </header>
      <div className={styles.intro}>{intro}</div>
      {aside}
      {sections.length > 4 && (
        <nav className={styles.toc} aria-labelledby="legal-contents">
          <h2 id="legal-contents" className={styles.tocTitle}>
            Contents
          </h2>
          <ol>
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.title}</a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      {sections.map((section, index) => (
        <section key={section.id} id={section.id} className={styles.section} aria-labelledby={`${section.id}-title`}>
          <h2 id={`${section.id}-title`}>
            {index + 1}. {section.title}
          </h2>
          {section.body}
        </section>
      ))}
    </article>
  );
}

/** A labelled, horizontally scrollable table for the legal texts (cookie lists, legal bases). */
export function LegalTable({ caption, head, rows }: { caption: string; head: readonly string[]; rows: ReadonlyArray<readonly ReactNode[]> }) {
  return (
    <div className={styles.tableWrap} role="region" aria-label={caption} tabIndex={0}>
      <table className={head.length > 3 ? `${styles.table} ${styles.wide}` : styles.table}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {head.map((cell) => (
              <th key={cell} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              {row.map((cell, column) => (column === 0 ? <th key={column} scope="row">{cell}</th> : <td key={column}>{cell}</td>))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The support address as a mail link. */
export function SupportEmail() {
  const address = supportEmail();
  return <a href={`mailto:${address}`}>{address}</a>;
}
