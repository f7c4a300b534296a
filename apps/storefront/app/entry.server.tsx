import { PassThrough } from 'node:stream';
import type { EntryContext } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { withoutNulBytes } from './html-stream.server';
import { provideServerTexts } from './shop-context';
import { textsOf } from './texts.server';

// pages are rendered with the server's copy of their texts, not sent in them (docs/decisions/0104)
provideServerTexts((lang) => textsOf(lang).dictionary);

// a shopper's page written into the template of a kept page, for the page cache (docs/decisions/0107)
export { personalPage } from './personal-page.server';

const ABORT_DELAY = 5_000;

/**
 * Remix's own Node entry (crawlers and SPA mode get the whole page at once, people the shell as soon as
 * it is ready), with one change: the HTML goes through `withoutNulBytes()` (app/html-stream.server.ts),
 * which takes out the NUL bytes React 18.3 leaves between Ethiopic letters.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const whole = isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      const clean = withoutNulBytes();
      body.pipe(clean);
      responseHeaders.set('Content-Type', 'text/html');
      resolve(
        new Response(createReadableStreamFromReadable(clean), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />,
      {
        ...(whole ? { onAllReady: ready } : { onShellReady: ready }),
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // errors of the shell itself reject and are logged by Remix; later ones are logged here
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
