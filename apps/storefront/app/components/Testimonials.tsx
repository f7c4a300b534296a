import { useState } from 'react';
import type { ReviewView } from '../shop-data';
import { useShop } from '../shop-context';
import { Stars } from './Stars';
import { useAutoAdvance, useReducedMotion } from './useReducedMotion';

export const TESTIMONIAL_INTERVAL_MS = 6000;

interface Testimonial {
  id: string;
  name: string;
  text: string;
  rating: number;
  product?: string;
}

/**
 * Recent reviews rotating every 6 s (arrows and dots when more than one); 3 static ones otherwise. A
 * customer's review is shown as written (marked `data-user-content`: the Amharic page's English check
 * skips what customers wrote); the static ones are the shop's own words, translated.
 */
export function Testimonials({ reviews }: { reviews: ReviewView[] }) {
  const { t, lang } = useShop();
  const items: Testimonial[] = reviews.length
    ? reviews.map((r) => ({
        id: r._id,
        name: r.user.name,
        text: r.comment,
        rating: r.rating,
        product: r.product
          ? lang === 'am' && r.product.nameAm
            ? r.product.nameAm
            : r.product.name
          : undefined,
      }))
    : [0, 1, 2].map((i) => ({
        id: `static-${i}`,
        name: t(`home.staticTestimonials.${i}.name`),
        text: t(`home.staticTestimonials.${i}.text`),
        rating: 5,
      }));
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reduced = useReducedMotion();
  const many = items.length > 1;
  const go = (n: number) => setIndex(((n % items.length) + items.length) % items.length);
  const paused = !many || hovered || focused || reduced;
  useAutoAdvance(() => go(index + 1), TESTIMONIAL_INTERVAL_MS, paused, index);
  const current = items[Math.min(index, items.length - 1)];

  return (
    <section
      className="testimonials"
      aria-labelledby="testimonials-title"
      data-paused={paused ? 'true' : 'false'}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setFocused(false)}
    >
      <h2 id="testimonials-title">{t('home.testimonials')}</h2>
      <figure className="testimonial" data-testid="testimonial">
        <Stars rating={current.rating} />
        <blockquote data-user-content={reviews.length ? true : undefined}>
          <p>“{current.text}”</p>
        </blockquote>
        <figcaption>
          — <span data-user-content={reviews.length ? true : undefined}>{current.name}</span>
          {current.product ? (
            <>
              , <cite>{current.product}</cite>
            </>
          ) : null}
        </figcaption>
      </figure>
      {many && (
        <div className="slider-controls">
          <button
            type="button"
            className="arrow"
            onClick={() => go(index - 1)}
            aria-label={t('home.previousTestimonial')}
          >
            ‹
          </button>
          <div className="dots">
            {items.map((item, i) => (
              <button
                key={item.id}
                type="button"
                className="dot"
                aria-label={t('home.goToTestimonial', { n: i + 1 })}
                aria-current={i === index ? 'true' : undefined}
                onClick={() => go(i)}
              />
            ))}
          </div>
          <button
            type="button"
            className="arrow"
            onClick={() => go(index + 1)}
            aria-label={t('home.nextTestimonial')}
          >
            ›
          </button>
        </div>
      )}
    </section>
  );
}
