import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { COLLECTIONS } from './collections.ts';
import { useCarousel } from './use-carousel.ts';
import styles from './collection-carousel.module.css';

/** The home page's rotating shelf of themed collections (an APG carousel: rotation control, previous/next, slide picker). */
export function CollectionCarousel() {
  const count = COLLECTIONS.length;
  const { index, goTo, next, previous, playing, rotating, toggleRotation, regionHandlers, swipeHandlers } = useCarousel(count);

  return (
    <section className={styles.carousel} aria-roledescription="carousel" aria-label="Collections" {...regionHandlers}>
      {/* Announce slide changes the visitor makes, not the automatic ones. */}
      <div className={styles.viewport} aria-live={playing ? 'off' : 'polite'} {...swipeHandlers}>
        <div className={styles.track} style={{ transform: `translateX(-${index * 100}%)` }}>
          {COLLECTIONS.map((collection, position) => {
            const current = position === index;
            const backdrop = { '--from': collection.colors[0], '--to': collection.colors[1] } as CSSProperties;
            return (
              <div
                key={collection.title}
                className={styles.slide}
                style={backdrop}
                role="group"
                aria-roledescription="slide"
                aria-label={`${position + 1} of ${count}`}
                // Slides out of view stay out of the tab order and the accessibility tree.
                inert={!current}
              >
                <p className={styles.kicker}>Collection</p>
                <h2 className={styles.title}>{collection.title}</h2>
                <p className={styles.description}>{collection.description}</p>
                <Link to={collection.to} className={styles.cta} draggable={false}>
                  Browse the collection
                </Link>
              </div>
            );
          })}
        </div>
      </div>
      <div className={styles.controls}>
        <button type="button" className={styles.control} onClick={toggleRotation} aria-label={rotating ? 'Stop automatic slide show' : 'Start automatic slide show'}>
          <span aria-hidden="true">{rotating ? '❚❚' : '▶'}</span>
        </button>
        <button type="button" className={styles.control} onClick={previous} aria-label="Previous slide">
          <span aria-hidden="true">‹</span>
        </button>
        <div className={styles.dots} role="group" aria-label="Choose a collection">
          {COLLECTIONS.map((collection, position) => (
            <button
              key={collection.title}
              type="button"
              className={styles.dot}
              aria-label={`Slide ${position + 1}: ${collection.title}`}
              aria-current={position === index ? 'true' : undefined}
              onClick={() => goTo(position)}
            />
          ))}
        </div>
        <button type="button" className={styles.control} onClick={next} aria-label="Next slide">
          <span aria-hidden="true">›</span>
        </button>
      </div>
    </section>
  );
}
