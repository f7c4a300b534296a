/** The `cors` package (the one @nestjs/platform-express runs for `enableCors`), as bootstrap.ts uses it. */
declare module 'cors' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface CorsOptions {
    origin?: boolean | string | RegExp | (string | RegExp)[];
    credentials?: boolean;
    exposedHeaders?: string | string[];
    allowedHeaders?: string | string[];
    methods?: string | string[];
    maxAge?: number;
    preflightContinue?: boolean;
    optionsSuccessStatus?: number;
  }

  function cors(
    options?: CorsOptions,
  ): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  export = cors;
}
