import { useFetcher, useLocation } from '@remix-run/react';
import { Form, useLocalePath } from './Localized';
import { useEffect, useRef, useState } from 'react';
import { quantityOptions } from '../catalogue';
import { FALLBACK, say, type Said } from '../apiMessages';
import { Personal } from '../personal-slots';
import { useShop } from '../shop-context';
import { HeartIcon } from './Icons';
import { showToast } from './Toast';

export const ADDED_STATE_MS = 1000;

type ActionAnswer = { ok?: boolean; said?: Said } | undefined;

/**
 * Add to cart: a plain POST form to /cart/add (works without JavaScript), enhanced with a fetcher that
 * shows the 'added' state for 1 s and the
 * 'Added to Cart!' toast (components/Toast.tsx). Guests add to a guest cart the same way.
 */
export function AddToCart({
  productId,
  variantId,
  stock,
  control,
  name,
}: {
  productId: string;
  /** the chosen variant of a product with variants (the API adds its default one without it) */
  variantId?: string;
  stock: number;
  control: 'stepper' | 'select';
  /** the product's name in the page's language, for the confirmation toast */
  name?: string;
}) {
  const { t } = useShop();
  const location = useLocation();
  const localize = useLocalePath();
  const fetcher = useFetcher<ActionAnswer>();
  const [quantity, setQuantity] = useState(1);
  const [added, setAdded] = useState(false);
  const [failure, setFailure] = useState<Said | null>(null);
  const wasBusy = useRef(false);
  // Once hydrated, the fetcher asks for a JSON answer (`mode=json`; Remix strips its own `_data` marker
  // before the action sees the request); without JavaScript the form is redirected back with a flash.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const options = quantityOptions(stock);
  const max = options.length;

  useEffect(() => {
    if (fetcher.state !== 'idle') {
      wasBusy.current = true;
      return;
    }
    if (!wasBusy.current) return;
    wasBusy.current = false;
    const answer = fetcher.data;
    if (answer && answer.ok === false) {
      setFailure(answer?.said ?? { key: FALLBACK.addToCart });
      return;
    }
    setFailure(null);
    setAdded(true);
    showToast(name);
    const timer = setTimeout(() => setAdded(false), ADDED_STATE_MS);
    return () => clearTimeout(timer);
  }, [fetcher.state, fetcher.data, name]);

  if (stock <= 0 && variantId) {
    // a sold-out variant: the same row, refused (no layout shift when switching to it and back)
    return (
      <div className={`add-to-cart with-${control}`} data-testid="variant-sold-out">
        {control === 'select' && (
          <label className="qty-select">
            <span>{t('product.quantity')}</span>
            <select disabled value={1} onChange={() => undefined}>
              <option value={1}>1</option>
            </select>
          </label>
        )}
        <button type="button" className="button add" disabled>
          {t('product.soldOutVariant')}
        </button>
        <p className="add-status" />
      </div>
    );
  }
  if (stock <= 0) {
    return <p className="stock-text out">{t('product.outOfStock')}</p>;
  }
  // Everyone adds to a cart (guests to a guest cart); `user` only decides the wishlist's sign-in.
  const FormTag = fetcher.Form;
  const busy = fetcher.state !== 'idle';
  const qtyId = `qty-${productId}-${control}`;
  return (
    <FormTag method="post" action={localize('/cart/add')} className={`add-to-cart with-${control}`}>
      <input type="hidden" name="productId" value={productId} />
      {variantId ? <input type="hidden" name="variantId" value={variantId} /> : null}
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {hydrated ? <input type="hidden" name="mode" value="json" /> : null}
      {control === 'stepper' && (
        <div className="stepper" role="group" aria-label={t('product.quantity')}>
          <button
            type="button"
            aria-label={t('product.decrease')}
            disabled={quantity <= 1}
            onClick={() => setQuantity((q) => Math.max(1, q - 1))}
          >
            −
          </button>
          <label htmlFor={qtyId} className="sr-only">
            {t('product.quantity')}
          </label>
          <input
            id={qtyId}
            name="quantity"
            type="number"
            inputMode="numeric"
            min={1}
            max={max}
            value={quantity}
            onChange={(e) => setQuantity(Math.min(max, Math.max(1, Number(e.currentTarget.value) || 1)))}
          />
          <button
            type="button"
            aria-label={t('product.increase')}
            disabled={quantity >= max}
            onClick={() => setQuantity((q) => Math.min(max, q + 1))}
          >
            +
          </button>
        </div>
      )}
      {control === 'select' && (
        <label className="qty-select">
          <span>{t('product.quantity')}</span>
          <select
            name="quantity"
            value={Math.min(quantity, max)}
            onChange={(e) => setQuantity(Number(e.currentTarget.value))}
          >
            {options.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="submit" className={`button add ${added ? 'added' : ''}`} disabled={busy}>
        {added ? t('product.added') : busy ? t('product.adding') : t('product.addToCart')}
      </button>
      {/* success is announced by the toast (one live region for it); failures here, beside the button */}
      <p className="add-status" role="status" aria-live="polite">
        {failure ? <span className="error">{say(t, failure, FALLBACK.addToCart)}</span> : null}
      </p>
    </FormTag>
  );
}

/** The wishlist heart: a POST form to /wishlist/toggle (a template holds it off and on: docs/decisions/0107). */
export function WishlistHeart({ productId, name }: { productId: string; name: string }) {
  const { t, wishlistIds, user, template } = useShop();
  const location = useLocation();
  const localize = useLocalePath();
  const fetcher = useFetcher();
  const saved = wishlistIds.includes(productId);
  const optimistic = fetcher.state !== 'idle' ? !saved : saved;
  // an account's heart is a fetcher's form (it stays on the page), a guest's a form that leaves it
  const Account = fetcher.Form;
  const heart = (on: boolean, FormTag: typeof Form | typeof Account) => (
    <FormTag method="post" action={localize('/wishlist/toggle')} className="heart-form">
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button
        type="submit"
        className={`heart ${on ? 'on' : ''}`}
        aria-pressed={on}
        aria-label={on ? t('product.removeFromWishlist', { name }) : t('product.addToWishlist', { name })}
      >
        <HeartIcon filled={on} />
      </button>
    </FormTag>
  );
  if (import.meta.env.SSR && template)
    return (
      <Personal
        name={`heart:${productId}`}
        forms={[heart(false, Form), heart(true, Form), heart(false, Account), heart(true, Account)]}
      />
    );
  return heart(optimistic, user ? Account : Form);
}
