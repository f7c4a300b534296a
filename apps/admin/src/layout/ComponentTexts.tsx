import { ThemeProvider, type Theme } from '@mui/material';
import { useMemo, type ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * What MUI's components say to screen readers on their own ('pagination navigation', '5 Stars',
 * 'Close'...), in the page's language from libs/i18n (`shop.admin.a11y`): component defaults laid
 * over the theme. react-admin's own texts (page numbers, rows per page) come from its dictionary.
 */
export function componentTexts(t: Translate): Theme['components'] {
  return {
    MuiPagination: { defaultProps: { 'aria-label': t('shop.admin.a11y.pagination') } },
    MuiRating: {
      defaultProps: {
        getLabelText: (value: number) => t('shop.admin.a11y.stars', { smart_count: value }),
        emptyLabelText: t('shop.admin.a11y.noRating'),
      },
    },
    MuiAlert: { defaultProps: { closeText: t('shop.admin.a11y.close') } },
    MuiAutocomplete: {
      defaultProps: {
        clearText: t('shop.admin.a11y.clear'),
        closeText: t('shop.admin.a11y.close'),
        openText: t('shop.admin.a11y.open'),
        noOptionsText: t('shop.admin.a11y.noOptions'),
        loadingText: t('shop.admin.a11y.loading'),
      },
    },
    MuiBreadcrumbs: { defaultProps: { expandText: t('shop.admin.a11y.showPath') } },
  };
}

/** The screens inside the layout with MUI's own labels in the page's language. */
export function ComponentTexts({ children }: { children: ReactNode }) {
  const t = useTranslate();
  const [locale] = useLocaleState();
  const merge = useMemo(() => {
    const texts = componentTexts(t);
    return (outer: Theme): Theme => {
      const components = { ...outer.components } as Record<string, { defaultProps?: object }>;
      for (const [name, value] of Object.entries(texts ?? {}) as [string, { defaultProps?: object }][])
        components[name] = {
          ...components[name],
          defaultProps: { ...components[name]?.defaultProps, ...value.defaultProps },
        };
      return { ...outer, components } as Theme;
    };
    // the texts change with the language
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, locale]);
  return <ThemeProvider theme={merge}>{children}</ThemeProvider>;
}
