// node-polyglot's `object.entries` polyfill (with get-intrinsic, call-bind and the rest, about 5 KiB gzipped)
// for a browser that has Object.entries anyway: vite.config.ts resolves the package to this file.
module.exports = Object.entries;
