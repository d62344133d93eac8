// The fake Stripe's hosted Checkout page, as a browser journey meets it: the sum, the lines, a
// 'Pay' button and a 'Cancel' link. Plain HTML with a form, no script: the page is what the buyer
// sees, the behaviour is the fake's (fake-stripe.ts).

/** What the page shows of a Checkout Session. */
export interface CheckoutPageView {
  sessionId: string;
  /** In cents, as the session's `amount_total`. */
  amountCents: number;
  currency: string;
  email: string | null;
  lines: Array<{ name: string; quantity: number }>;
  /** Why the session cannot be paid any more (complete, expired), if it cannot. */
  closed?: string;
}

/** The amount as Stripe's page writes it, e.g. `€12.34`. */
function formatAmount(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

/** The hosted Checkout page of one session. */
export function checkoutPageHtml(view: CheckoutPageView): string {
  const path = `/c/pay/${encodeURIComponent(view.sessionId)}`;
  const amount = formatAmount(view.amountCents, view.currency);
  const lines = view.lines.map((line) => `<li>${escapeHtml(line.name)} <span>× ${line.quantity}</span></li>`).join('');
  const action = view.closed
    ? `<p role="alert">${escapeHtml(view.closed)}</p>`
    : `<form method="post" action="${path}"><button type="submit">Pay</button></form><p><a href="${path}/cancel">Cancel</a></p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fake Stripe Checkout</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f6f9fc; color: #1a1f36; margin: 0; }
  main { max-width: 28rem; margin: 4rem auto; background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 2px 12px #0002; }
  .amount { font-size: 2.25rem; font-weight: 600; margin: 0.25rem 0 1rem; }
  ul { padding: 0; list-style: none; color: #3c4257; }
  li { display: flex; justify-content: space-between; padding: 0.25rem 0; }
  button { width: 100%; padding: 0.8rem; font-size: 1rem; background: #635bff; color: #fff; border: 0; border-radius: 6px; cursor: pointer; }
  a { color: #635bff; }
</style>
</head>
<body>
<main>
  <h1>Fake Stripe Checkout</h1>
  <p>Pay Keystore</p>
  <p class="amount">${amount}</p>
  <ul aria-label="Items">${lines}</ul>
  ${view.email ? `<p>${escapeHtml(view.email)}</p>` : ''}
  ${action}
</main>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
