import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import './app/global.css';
// Part of the entry's file, though nothing here calls them: the pieces the first views (/, /store,
// /game/{id}) share with other pages. As chunks of their own they cost each of those views one more
// request (~1 KB of headers) for a few hundred bytes of code (docs/decisions/027).
import './ui/game-card.tsx';
import './lib/checkout.ts';

// As a transition, the first render yields to the browser every few milliseconds instead of holding
// the main thread for the whole page at once: input stays responsive while the store starts.
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

// Installed-app mode: the service worker caches the app shell (production builds only).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // Without a service worker the store still works; it just is not installable.
    });
  });
}
