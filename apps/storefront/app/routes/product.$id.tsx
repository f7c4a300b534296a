import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { isRouteErrorResponse, useLoaderData, useRouteError, useSearchParams } from '@remix-run/react';
import { Link } from '../components/Localized';
import { CATEGORIES, SUB_CATEGORIES, formatMoney } from '@shop/shared';
import { useState } from 'react';
import { sizeText } from '../catalogue';
import { AddToCart, WishlistHeart } from '../components/AddToCart';
import { Deferred } from '../components/Deferred';
import { ErrorPage, NotFound } from '../components/NotFound';
import { Price } from '../components/Price';
import { productName } from '../components/ProductCard';
import { ShopImage } from '../components/ShopImage';
import { ReviewSection } from '../components/ReviewSection';
import { VariantPicker } from '../components/VariantPicker';
import { dateTexts } from '../dates';
import { env } from '../env.server';
import { localePath, pageLanguage } from '../language';
import { getProduct, productReviews } from '../products.server';
import { shelfPriceText } from '../price-words';
import { Personal, TOKEN } from '../personal-slots';
import { langOf, translatorOf, useShop } from '../shop-context';
import { chosenVariant, hasVariants, variantImages } from '../variants';

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = params.id ?? '';
  const [result, reviews] = await Promise.all([getProduct(request, id), productReviews(request, id)]);
  if (result.notFound) throw new Response('Product not found', { status: 404 });
  if (!result.product) throw new Response('The product could not be loaded', { status: 502 });
  const origin = env.storefrontUrl || new URL(request.url).origin;
  const lang = pageLanguage(request);
  // ?variant=<id> chooses a variant (links of the picker, without JavaScript too); else the default one
  const variant = chosenVariant(result.product, new URL(request.url).searchParams.get('variant'));
  return {
    product: result.product,
    variantId: variant?._id ?? null,
    reviews: reviews && reviews.map((r) => ({ ...r, dateTexts: dateTexts(r.createdAt, lang) })),
    // the page in its language (/am/product/… in Amharic): JSON-LD's url; og:url and canonical are the root's
    pageUrl: `${origin}${localePath(lang, `/product/${id}`)}`,
  };
}

/** Title, description and Open Graph tags for sharing, in the page's language. */
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const lang = langOf(matches);
  const t = translatorOf(matches);
  if (!data?.product) return [{ title: t('errors.notFound') }];
  const p = data.product;
  const name = productName(p, lang);
  const description = ((lang === 'am' && p.descriptionAm) || p.description || '').slice(0, 200);
  // the API answers image URLs absolute (built from its PUBLIC_API_URL)
  const variant = chosenVariant(p, data.variantId);
  const image = variant?.images[0] ?? p.images[0];
  const price = variant?.price ?? p.price;
  return [
    { title: `${name} · ${t('common.shopName')}` },
    { name: 'description', content: description },
    { property: 'og:type', content: 'product' },
    { property: 'og:title', content: name },
    { property: 'og:description', content: description },
    { property: 'og:site_name', content: t('common.shopName') },
    ...(image ? [{ property: 'og:image', content: image }] : []),
    { property: 'product:price:amount', content: price.toFixed(2) },
    { property: 'product:price:currency', content: 'ETB' },
    { name: 'twitter:card', content: 'summary_large_image' },
  ];
};

/** schema.org Product structured data (escaped so product text can never close the script). */
function ProductJsonLd({ json }: { json: object }) {
  const text = JSON.stringify(json).replace(/</g, '\\u003c');
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: text }} />;
}

export default function ProductPage() {
  const { product: p, reviews, pageUrl, variantId } = useLoaderData<typeof loader>();
  const { t, lang, cartQuantities, publicSettings, template } = useShop();
  const inCart = cartQuantities[p._id] ?? 0;
  const inCartRow = (count: number | string) => (
    <>
      <dt>{t('product.yourCart')}</dt>
      <dd className="in-cart-text">{t('product.inCart', { count })}</dd>
    </>
  );
  const [params] = useSearchParams();
  const [imageIndex, setImageIndex] = useState(() => Number(params.get('view')) || 0);
  // With JavaScript a choice changes the variant here and replaces the address (no loader call); the
  // loader's choice (from ?variant=) counts until then, and again on another product's page.
  const [picked, setPicked] = useState<{ productId: string; variantId: string } | null>(null);
  const variant = chosenVariant(p, picked?.productId === p._id ? picked.variantId : variantId);
  const price = variant?.price ?? p.price;
  const originalPrice = variant ? (variant.compareAtPrice ?? variant.originalPrice) : p.originalPrice;
  const sale = variant ? variant.promotion : p.promotion;
  const stock = variant ? variant.countInStock : p.stock;
  const lowStockThreshold = variant ? variant.lowStockThreshold : p.lowStockThreshold;
  const discount = variant
    ? originalPrice && originalPrice > price
      ? Math.round((1 - price / originalPrice) * 100)
      : 0
    : p.discount;
  const name = productName(p, lang);
  const description = (lang === 'am' && p.descriptionAm) || p.description;
  // In Amharic, the Amharic lists when the product has them (line by line beside the English ones).
  const amharic = (list: string[] | undefined, am: string[] | undefined) =>
    lang === 'am' && am?.length ? am : (list ?? []);
  const ingredients = amharic(p.ingredients, p.ingredientsAm);
  const benefits = amharic(p.benefits, p.benefitsAm);
  const category = CATEGORIES.find((c) => c.slug === p.category);
  const subCategory = SUB_CATEGORIES.find((c) => c.slug === p.subCategory);
  const images = variantImages(p.images, variant);
  const shown = imageIndex >= 0 && imageIndex < images.length ? Math.floor(imageIndex) : 0;
  // The seeded views are named by their files (product, -texture, -ingredients); other images by number.
  const viewOf = (i: number) =>
    /-texture\.\w+$/.test(images[i])
      ? 'texture'
      : /-ingredients\.\w+$/.test(images[i])
        ? 'ingredients'
        : i === 0
          ? 'product'
          : null;
  const viewAlt = (i: number) => {
    const view = viewOf(i);
    return view ? t(`ui.views.${view}`, { name }) : `${name} (${t('product.showImage', { n: i + 1 })})`;
  };
  const viewName = (i: number) => {
    const view = viewOf(i);
    return view ? t(`ui.viewNames.${view}`) : String(i + 1);
  };
  const stockText =
    stock <= 0
      ? t(variant ? 'product.soldOutVariant' : 'product.outOfStock')
      : stock <= lowStockThreshold
        ? t('product.onlyLeft', { count: stock })
        : t('product.inStock', { count: stock });
  const availability = (n: number) =>
    n > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock';
  const variantUrl = (id: string) => `${pageUrl}?variant=${id}`;
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name,
    description,
    image: images,
    brand: p.brand ? { '@type': 'Brand', name: p.brand } : undefined,
    category: category?.name.en,
    url: pageUrl,
    // a product with variants: one Offer per variant (its SKU, price, stock and address)
    offers: hasVariants(p)
      ? p.variants.map((v) => ({
          '@type': 'Offer',
          sku: v.sku,
          name: Object.values(v.options).join(' / '),
          price: v.price.toFixed(2),
          priceCurrency: 'ETB',
          availability: availability(v.countInStock),
          url: variantUrl(v._id),
        }))
      : {
          '@type': 'Offer',
          price: p.price.toFixed(2),
          priceCurrency: 'ETB',
          availability: availability(p.stock),
          url: pageUrl,
        },
    ...(p.reviewCount > 0
      ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: p.rating, reviewCount: p.reviewCount } }
      : {}),
  };

  return (
    <article className={`product-detail${variant ? ' has-variants' : ''}`} aria-labelledby="product-title">
      <ProductJsonLd json={jsonLd} />
      <nav aria-label={t('product.breadcrumb')} className="breadcrumb">
        <Link to="/">{t('nav.home')}</Link> › <Link to="/products">{t('nav.products')}</Link>
        {category && (
          <>
            {' '}
            › <Link to={`/products?category=${category.slug}`}>{category.name[lang]}</Link>
          </>
        )}
      </nav>
      <div className="detail-grid">
        <div className="gallery" id="gallery" role="group" aria-label={t('ui.gallery')}>
          <div className="main-image card-image">
            {images[shown] && (
              <ShopImage
                src={images[shown]}
                alt={viewAlt(shown)}
                width={560}
                height={560}
                place="detail"
                priority={shown === 0}
              />
            )}
            {discount > 0 && <span className="badge">{t('product.off', { percent: discount })}</span>}
            {stock <= 0 && (
              <span className="overlay">{t(variant ? 'product.soldOutVariant' : 'product.outOfStock')}</span>
            )}
          </div>
          {images.length > 1 && (
            <ul className="thumbs">
              {images.map((src, i) => (
                <li key={src}>
                  {/* a link to ?view=n without JavaScript; with it, the view changes in place */}
                  <a
                    href={`?${variant ? `variant=${variant._id}&` : ''}view=${i}#gallery`}
                    aria-current={i === shown ? 'true' : undefined}
                    onClick={(e) => {
                      e.preventDefault();
                      setImageIndex(i);
                    }}
                  >
                    <ShopImage src={src} alt="" width={72} height={72} place="thumb" lazy />
                    <span>{viewName(i)}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="summary">
          {p.brand && <p className="brand">{p.brand}</p>}
          <h1 id="product-title">{name}</h1>
          <p className="rating">
            <a href="#reviews">
              {p.reviewCount === 0 ? (
                t('ui.noReviewsYet')
              ) : (
                <>
                  <span aria-hidden="true">
                    {'★'.repeat(Math.round(p.rating))}
                    {'☆'.repeat(5 - Math.round(p.rating))}
                  </span>{' '}
                  {t(p.reviewCount === 1 ? 'product.ratingSummaryOne' : 'product.ratingSummary', {
                    rating: p.rating.toFixed(1),
                    count: p.reviewCount,
                  })}
                </>
              )}
            </a>
          </p>
          <Price price={price} originalPrice={originalPrice} sale={sale} />
          {discount > 0 && originalPrice && (
            <p className="saving">
              {t('product.youSave', { amount: formatMoney(originalPrice - price, 'ETB', lang) })}
            </p>
          )}
          {variant && (
            <VariantPicker
              product={p}
              chosen={variant}
              onChoose={(id, href) => {
                setPicked({ productId: p._id, variantId: id });
                setImageIndex(0);
                window.history.replaceState(window.history.state, '', href);
              }}
            />
          )}
          <dl className="facts">
            {category && (
              <>
                <dt>{t('product.category')}</dt>
                <dd>
                  {category.name[lang]}
                  {subCategory ? ` · ${subCategory.name[lang]}` : ''}
                </dd>
              </>
            )}
            {p.brand && (
              <>
                <dt>{t('product.brand')}</dt>
                <dd>{p.brand}</dd>
              </>
            )}
            {/* with variants the picker says the size */}
            {p.size && !variant && (
              <>
                <dt>{t('product.size')}</dt>
                <dd>{sizeText(p.size, lang)}</dd>
              </>
            )}
            <dt>{t('product.availability')}</dt>
            <dd className={`stock-text ${stock <= 0 ? 'out' : ''}`} data-testid="stock-text">
              {stockText}
            </dd>
            {import.meta.env.SSR && template ? (
              // both forms, the count a token (docs/decisions/0107)
              <Personal name={`in-cart:${p._id}`} forms={[null, inCartRow(TOKEN.count)]} />
            ) : (
              inCart > 0 && inCartRow(inCart)
            )}
          </dl>
          <p className="description">{description}</p>
          {/* phones: this row sticks to the bottom of the screen while the product's details scroll
              (position: sticky, so nothing moves: no layout shift), with the price and its VAT words */}
          <div className="buy-row" data-testid="buy-row">
            <p className="buy-price" aria-hidden="true">
              {shelfPriceText(price, lang, publicSettings.pricesIncludeTax, t)}
            </p>
            {/* a new variant: a fresh form (its 'added' state and quantity were the other variant's) */}
            <AddToCart
              key={variant?._id ?? p._id}
              productId={p._id}
              variantId={variant?._id}
              stock={stock}
              control="select"
              name={variant ? `${name} — ${Object.values(variant.options).join(', ')}` : name}
            />
            <WishlistHeart productId={p._id} name={name} />
          </div>
          {ingredients.length > 0 && (
            <section aria-labelledby="ingredients-title" className="ingredients">
              <h2 id="ingredients-title">{t('product.ingredients')}</h2>
              <p>{ingredients.join(', ')}</p>
            </section>
          )}
          {benefits.length > 0 && (
            <section aria-labelledby="benefits-title">
              <h2 id="benefits-title">{t('product.benefits')}</h2>
              <ul>
                {benefits.map((b) => (
                  <li key={b}>{b}</li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </div>
      <Deferred>
        <ReviewSection productId={p._id} rating={p.rating} reviewCount={p.reviewCount} reviews={reviews} />
      </Deferred>
    </article>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return <ErrorPage />;
}
