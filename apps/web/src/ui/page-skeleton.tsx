import type { ReactNode } from 'react';

interface PageSkeletonProps {
  /** The page's name, for the busy region. */
  label: string;
  /** What a screen reader hears while the page loads. */
  status: string;
  className: string | undefined;
  /** The page's grey shapes. */
  children: ReactNode;
}

/** A page's shape while its data loads: marked busy, with a spoken status. */
export function PageSkeleton({ label, status, className, children }: PageSkeletonProps) {
  return (
    <section className={className} aria-busy="true" aria-label={label}>
      <span className="visually-hidden" role="status">
        {status}
      </span>
      {children}
    </section>
  );
}
