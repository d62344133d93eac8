// The card brands the test gateway takes, drawn inline: no image request, and crisp at any size.

/** The Visa mark: the wordmark on white. */
export function VisaMark() {
  return (
    <svg width="48" height="30" viewBox="0 0 48 30" aria-hidden="true" focusable="false">
      <rect width="48" height="30" rx="4" fill="#fff" />
      <text x="24" y="20.5" textAnchor="middle" fontFamily="Arial, Helvetica, sans-serif" fontSize="14" fontStyle="italic" fontWeight="900" fill="#1a1f71">
        VISA
      </text>
    </svg>
  );
}

/** The Mastercard mark: the two overlapping circles. */
export function MastercardMark() {
  return (
    <svg width="48" height="30" viewBox="0 0 48 30" aria-hidden="true" focusable="false">
      <rect width="48" height="30" rx="4" fill="#fff" />
      <circle cx="19" cy="15" r="9" fill="#eb001b" />
      <circle cx="29" cy="15" r="9" fill="#f79e1b" />
      <path d="M24 7.5a9 9 0 0 1 0 15 9 9 0 0 1 0-15z" fill="#ff5f00" />
    </svg>
  );
}
