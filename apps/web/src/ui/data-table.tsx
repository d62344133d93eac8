import type { ReactNode } from 'react';
import styles from './data-table.module.css';

/** A column heading: its text, or its text and that its cells are numbers (aligned right, like cells given `.number` of data-table.module.css). */
export type Column = string | { label: string; numeric: true };

interface DataTableProps {
  caption: string;
  /** Whether the caption is for screen readers only (a heading above already says it). */
  captionHidden?: boolean;
  /** The scrolling region's name; the caption by default. */
  label?: string;
  columns: readonly Column[];
  busy?: boolean;
  /** The area's own class on the scrolling box, for what its tables add (how cells sit, …). */
  className?: string;
  /** The rows (`<tr>`), each led by its row heading. */
  children: ReactNode;
}

/**
 * A table of the back office or the seller area, with its caption and column headings, in a box that
 * scrolls sideways on a narrow screen: a named region that takes focus, so a keyboard can scroll it too.
 */
export function DataTable({ caption, captionHidden = false, label = caption, columns, busy = false, className, children }: DataTableProps) {
  return (
    <div className={className ? `${styles.wrap} ${className}` : styles.wrap} role="region" aria-label={label} tabIndex={0}>
      <table className={styles.table} aria-busy={busy}>
        <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" className={styles.number}>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
