import { Link } from './Localized';
import { useState } from 'react';
import { useShop } from '../shop-context';
import { ShopImage } from './ShopImage';
import { useAutoAdvance, useReducedMotion } from './useReducedMotion';

export const HERO_SLIDES = 4;
export const HERO_INTERVAL_MS = 6000;

/**
 * The home hero: 4 slides advancing every 6 s, previous/next, dots and a progress bar; paused while
 * hovered or focused, for users who prefer reduced motion and for phones that ask to save data. Arrow keys move between slides.
 */
export function HeroSlider() {
  const { t, saveData } = useShop();
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reduced = useReducedMotion();
  // Save-Data: the shopper moves the slides (no timer, no next picture fetched unasked)
  const paused = hovered || focused || reduced || saveData;
  const go = (n: number) => setIndex(((n % HERO_SLIDES) + HERO_SLIDES) % HERO_SLIDES);
  useAutoAdvance(() => go(index + 1), HERO_INTERVAL_MS, paused, index);

  return (
    // Arrow keys pressed on the slider's own buttons bubble up to the region (WAI carousel pattern); the section is not focusable itself.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      className="hero-slider"
      aria-roledescription={t('home.carousel')}
      aria-label={t('home.heroLabel')}
      data-paused={paused ? 'true' : 'false'}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setFocused(false)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowRight') go(index + 1);
        if (e.key === 'ArrowLeft') go(index - 1);
      }}
    >
      <div className="slides" aria-live={paused ? 'polite' : 'off'}>
        {Array.from({ length: HERO_SLIDES }, (_, i) => (
          <div
            key={i}
            className={`slide slide-${i + 1}`}
            hidden={i !== index}
            role="group"
            aria-roledescription={t('home.slide')}
            aria-label={t('home.slideOf', { n: i + 1, total: HERO_SLIDES })}
          >
            {/* an illustrated scene shipped with the shop (public/hero, about 2 KB each), no external fetch */}
            <ShopImage
              className="slide-art"
              src={`/hero/slide-${i + 1}.svg`}
              alt={t(`ui.heroArt.${i}`)}
              width={640}
              height={400}
              place="hero"
              priority={i === 0}
            />
            <div className="slide-text">
              {i === 0 ? <h1>{t(`home.slides.${i}.title`)}</h1> : <h2>{t(`home.slides.${i}.title`)}</h2>}
              <p>{t(`home.slides.${i}.text`)}</p>
              <Link to="/shop" className="button">
                {t('home.shopNow')}
              </Link>
            </div>
          </div>
        ))}
      </div>
      <div className="slider-controls">
        <button
          type="button"
          className="arrow"
          onClick={() => go(index - 1)}
          aria-label={t('home.previousSlide')}
        >
          ‹
        </button>
        <div className="dots">
          {Array.from({ length: HERO_SLIDES }, (_, i) => (
            <button
              key={i}
              type="button"
              className="dot"
              aria-label={t('home.goToSlide', { n: i + 1 })}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => go(i)}
            />
          ))}
        </div>
        <button
          type="button"
          className="arrow"
          onClick={() => go(index + 1)}
          aria-label={t('home.nextSlide')}
        >
          ›
        </button>
      </div>
      <div className="progress" aria-hidden="true">
        <span
          key={index}
          className="progress-bar"
          style={{
            animationDuration: `${HERO_INTERVAL_MS}ms`,
            animationPlayState: paused ? 'paused' : 'running',
          }}
        />
      </div>
    </section>
  );
}
