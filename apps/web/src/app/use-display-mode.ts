import { useEffect } from 'react';

/**
 * Marks the page as running installed (standalone) or in the browser (`data-display-mode` on
 * <html>), and on touch devices asks for fullscreen on the first touch (SPEC §2, layout).
 */
export function useDisplayMode(): void {
  useEffect(() => {
    const standalone = window.matchMedia('(display-mode: standalone)');
    const mark = () => {
      document.documentElement.dataset.displayMode = standalone.matches || (navigator as { standalone?: boolean }).standalone ? 'app' : 'browser';
    };
    mark();
    standalone.addEventListener('change', mark);

    const coarse = window.matchMedia('(pointer: coarse)').matches;
    const askFullscreen = () => {
      if (!document.fullscreenElement && document.documentElement.requestFullscreen) {
        document.documentElement.requestFullscreen().catch(() => {
          // The browser may refuse (iOS Safari, settings); the page works the same without it.
        });
      }
    };
    if (coarse) document.addEventListener('touchend', askFullscreen, { once: true });
    return () => {
      standalone.removeEventListener('change', mark);
      document.removeEventListener('touchend', askFullscreen);
    };
  }, []);
}
