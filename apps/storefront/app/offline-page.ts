import { translate, type Language } from '@shop/i18n';
import amharicPagesFonts from './fonts/amharic-pages.css?inline';
import englishPagesFonts from './fonts/english-pages.css?inline';

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The shop's offline page (docs/decisions/0094-pwa.md): what the service worker shows, in the page's
 * language, for a page not seen before when the network is gone. One self-contained document (styles in
 * it, no script, no image) so that it needs nothing else from the network; precached by the service
 * worker from /offline and /am/offline. 'Try again' reloads the address the shopper asked for (the
 * service worker answers it at that address). Its text is drawn with the pages' own font faces (a
 * phone's copy first; app/fonts), whose files the service worker precaches with the app shell: a phone without an
 * Ethiopic system font would otherwise show empty boxes (docs/decisions/0094-pwa.md).
 */
export function offlinePageHtml(lang: Language): string {
  const t = (key: string) => escape(translate(lang, key));
  const home = lang === 'am' ? '/am/' : '/';
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#3f6b2c">
<meta name="robots" content="noindex">
<title>${t('pwa.offline.title')} · ${t('common.shopName')}</title>
<link rel="manifest" href="${lang === 'am' ? '/am/manifest.webmanifest' : '/manifest.webmanifest'}">
<style>
${lang === 'am' ? amharicPagesFonts : englishPagesFonts}
body{margin:0;font-family:'Noto Sans Ethiopic','Nyala','Abyssinica SIL',system-ui,-apple-system,'Segoe UI',sans-serif;color:#2f2a24;background:#f6f1e9;line-height:1.6}
header{background:#3f6b2c;color:#fff;padding:14px 16px;font-weight:700;font-size:1.1rem}
main{max-width:34rem;margin:0 auto;padding:32px 16px}
h1{font-size:1.5rem;margin:0 0 12px}
p{margin:0 0 24px;color:#4a4238}
.actions{display:flex;flex-wrap:wrap;gap:12px}
a{display:inline-flex;align-items:center;min-height:44px;padding:0 18px;border-radius:8px;font-weight:600;text-decoration:none}
.retry{background:#3f6b2c;color:#fff}
.home{border:2px solid #3f6b2c;color:#2f5220}
a:focus-visible{outline:3px solid #8a5a00;outline-offset:2px}
</style>
</head>
<body>
<header>${t('common.shopName')}</header>
<main>
<h1 data-testid="offline-title">${t('pwa.offline.title')}</h1>
<p>${t('pwa.offline.text')}</p>
<div class="actions"><a class="retry" href="">${t('pwa.offline.retry')}</a><a class="home" href="${home}">${t('pwa.offline.home')}</a></div>
</main>
</body>
</html>
`;
}

export function offlinePageResponse(lang: Language): Response {
  return new Response(offlinePageHtml(lang), {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      // the service worker keeps its own copy (precache); the page itself is the same for everyone
      'Cache-Control': 'public, max-age=0, s-maxage=3600',
      'X-Robots-Tag': 'noindex',
    },
  });
}
