// Serves the built back office: static files, SPA fallback, and /config.js with the runtime API address.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

const dist = path.join(path.dirname(new URL(import.meta.url).pathname), 'dist');
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export function configScript(env = process.env) {
  const apiUrl = env.API_URL || 'http://localhost:4000/api';
  const storefrontUrl = env.STOREFRONT_URL || 'http://localhost:3000';
  return `window.__SHOP_CONFIG__ = ${JSON.stringify({ apiUrl, storefrontUrl })};\n`;
}

export function createServer(env = process.env) {
  const apiOrigin = new URL(env.API_URL || 'http://localhost:4000/api').origin;
  const security = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Content-Security-Policy': `default-src 'self'; img-src 'self' data: blob: https: ${apiOrigin}; connect-src 'self' ${apiOrigin}; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'`,
  };
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/config.js') {
      res.writeHead(200, { ...security, 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' });
      res.end(configScript(env));
      return;
    }
    const file = path.normalize(path.join(dist, decodeURIComponent(url.pathname)));
    const inside = file.startsWith(dist + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile();
    const target = inside ? file : path.join(dist, 'index.html');
    res.writeHead(200, {
      ...security,
      'Content-Type': TYPES[path.extname(target)] ?? 'application/octet-stream',
    });
    fs.createReadStream(target).pipe(res);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const port = Number(process.env.PORT || 3001);
  const server = createServer();
  server.listen(port, () => console.log(`Admin on http://localhost:${port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
