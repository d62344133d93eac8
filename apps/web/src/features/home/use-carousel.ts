import { useEffect, useRef, useState, type FocusEvent, type MouseEvent, type PointerEvent } from 'react';
import { usePrefersReducedMotion } from './use-reduced-motion.ts';

/** The carousel moves on by itself this often (SPEC §9)… */
const CAROUSEL_ADVANCE_MS = 5000;
/** …and a swipe longer than this turns it. */
const CAROUSEL_SWIPE_PX = 50;

/**
 * The state of a rotating carousel of `count` slides: the current slide, auto-advance every
 * CAROUSEL_ADVANCE_MS that pauses while the pointer is over it or focus is inside it (and stays off
 * for visitors who prefer reduced motion unless they start it), and swipes of more than CAROUSEL_SWIPE_PX.
 */
export function useCarousel(count: number) {
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  // null until the visitor presses the rotation button: until then reduced motion decides.
  const [rotationChoice, setRotationChoice] = useState<boolean | null>(null);
  const reducedMotion = usePrefersReducedMotion();
  const rotating = rotationChoice ?? !reducedMotion;
  const playing = rotating && !hovered && !focused;

  const swipeStart = useRef<number | null>(null);
  const swiped = useRef(false);

  const goTo = (next: number) => setIndex(((next % count) + count) % count);
  const next = () => setIndex((current) => (current + 1) % count);
  const previous = () => setIndex((current) => (current - 1 + count) % count);

  // Restarted on every slide change, so a slide picked by hand also gets its full 5 s.
  useEffect(() => {
    if (!playing) return;
    const timer = setTimeout(() => setIndex((current) => (current + 1) % count), CAROUSEL_ADVANCE_MS);
    return () => clearTimeout(timer);
  }, [playing, index, count]);

  const regionHandlers = {
    // Only a real mouse hovers: a tap also sends pointerenter but never a matching pointerleave.
    onPointerEnter: (event: PointerEvent) => event.pointerType === 'mouse' && setHovered(true),
    onPointerLeave: (event: PointerEvent) => event.pointerType === 'mouse' && setHovered(false),
    onFocus: () => setFocused(true),
    onBlur: (event: FocusEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
    },
  };

  const swipeHandlers = {
    onPointerDown: (event: PointerEvent) => {
      swipeStart.current = event.clientX;
      swiped.current = false;
    },
    onPointerUp: (event: PointerEvent) => {
      if (swipeStart.current === null) return;
      const distance = event.clientX - swipeStart.current;
      swipeStart.current = null;
      if (Math.abs(distance) <= CAROUSEL_SWIPE_PX) return;
      swiped.current = true;
      if (distance < 0) next();
      else previous();
    },
    onPointerCancel: () => {
      swipeStart.current = null;
    },
    // A drag that ended on the slide's link must not also follow the link.
    onClickCapture: (event: MouseEvent) => {
      if (!swiped.current) return;
      swiped.current = false;
      event.preventDefault();
      event.stopPropagation();
    },
  };

  return {
    index,
    goTo,
    next,
    previous,
    playing,
    rotating,
    toggleRotation: () => setRotationChoice(!rotating),
    regionHandlers,
    swipeHandlers,
  };
}
