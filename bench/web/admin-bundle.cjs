// The admin app's JavaScript: every file of its build, and the part its entry page loads first (gzipped, level 9).
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

module.exports = function adminBundle(dist = path.join(__dirname, '..', '..', 'apps/admin/dist')) {
  const gzipSize = (buffer) => zlib.gzipSync(buffer, { level: 9 }).length;
  const files = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.js')) files.push(p);
    }
  };
  walk(dist);
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entry = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ]
    .map((m) => path.join(dist, m[1].replace(/^\/(admin\/)?/, '')))
    .filter((p) => fs.existsSync(p));
  const sum = (list) =>
    list.reduce(
      (acc, p) => {
        const b = fs.readFileSync(p);
        return { raw: acc.raw + b.length, gzip: acc.gzip + gzipSize(b) };
      },
      { raw: 0, gzip: 0 },
    );
  const all = sum(files);
  const initial = sum([...new Set(entry)]);
  const kib = (n) => Math.round((n / 1024) * 10) / 10;
  return {
    files: files.length,
    rawBytes: all.raw,
    gzipBytes: all.gzip,
    gzipKiB: kib(all.gzip),
    entry: { files: new Set(entry).size, gzipBytes: initial.gzip, gzipKiB: kib(initial.gzip) },
  };
};
