import { useLocation } from '@remix-run/react';
import {
  optionChoices,
  optionName,
  variantHref,
  type ProductVariant,
  type VariantProduct,
} from '../variants';
import { useShop } from '../shop-context';
// in the page, beside the picker: a stylesheet of its own held up the product page's first paint (a
// render-blocking request, 1.9 KB); only pages with a picker carry it
import variantCss from './variant-picker.css?inline';

/**
 * The product page's variant picker (issue 30.3, docs/product.md "Variants"): one radio group per option,
 * sizes and other options as buttons, shades as round swatches. Each choice is a link to `?variant=<id>`
 * (the server renders that variant chosen: it works without JavaScript); with JavaScript `onChoose`
 * changes the variant in place and the address is replaced. A sold-out choice stays visible, struck
 * through, with "Sold out"; choosing it shows the variant refused (no add to cart).
 */
export function VariantPicker({
  product,
  chosen,
  onChoose,
}: {
  product: VariantProduct;
  chosen: ProductVariant;
  onChoose?: (variantId: string, href: string) => void;
}) {
  const { t, lang } = useShop();
  const { search } = useLocation();
  return (
    <div className="variant-picker" data-testid="variant-picker">
      <style dangerouslySetInnerHTML={{ __html: variantCss }} />
      {(product.options ?? []).map((option, index) => {
        const label = optionName(option, lang);
        const labelId = `option-${index}-label`;
        const choices = optionChoices(product, option, chosen);
        const shade = option.kind === 'shade';
        return (
          <div key={option.name} className="variant-option">
            <p className="variant-option-label" id={labelId}>
              {label}: <strong data-testid="chosen-value">{chosen.options[option.name]}</strong>
            </p>
            <div
              role="radiogroup"
              aria-label={t('product.chooseOption', { option: label })}
              className={shade ? 'variant-swatches' : 'variant-buttons'}
            >
              {choices.map((c) => {
                const href = c.variantId ? variantHref(search, c.variantId) : undefined;
                const words = c.soldOut ? `${c.value} (${t('product.soldOutVariant')})` : c.value;
                const className = [
                  shade ? 'variant-swatch' : 'variant-button',
                  c.selected ? 'selected' : '',
                  c.soldOut ? 'sold-out' : '',
                ]
                  .filter(Boolean)
                  .join(' ');
                // a value no variant has: shown, not a link
                if (!href || !c.variantId)
                  return (
                    <span
                      key={c.value}
                      className={className}
                      aria-disabled="true"
                      role="radio"
                      aria-checked="false"
                    >
                      {shade ? <span className="sr-only">{words}</span> : <VariantButtonText {...c} />}
                    </span>
                  );
                const variantId = c.variantId;
                return (
                  <a
                    key={c.value}
                    href={href}
                    role="radio"
                    aria-checked={c.selected}
                    className={className}
                    data-sold-out={c.soldOut ? 'true' : undefined}
                    title={shade ? words : undefined}
                    style={shade && c.swatch ? { background: c.swatch } : undefined}
                    onClick={(e) => {
                      if (!onChoose) return;
                      e.preventDefault();
                      onChoose(variantId, href);
                    }}
                  >
                    {shade ? <span className="sr-only">{words}</span> : <VariantButtonText {...c} />}
                  </a>
                );
              })}
            </div>
          </div>
        );
      })}
    </div>
  );
}

function VariantButtonText({ value, soldOut }: { value: string; soldOut: boolean }) {
  const { t } = useShop();
  return (
    <>
      <span className="variant-value">{value}</span>
      {soldOut ? <small className="variant-sold-out">{t('product.soldOutVariant')}</small> : null}
    </>
  );
}
