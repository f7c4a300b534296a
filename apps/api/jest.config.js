module.exports = {
  ...require('../../jest.preset.js'),
  // A ceiling, not a speed check: suites start a whole app and seed the catalogue in beforeAll, which
  // takes a few seconds on a quiet machine and much longer when CI runs the API and browser suites side by side.
  testTimeout: 90000,
};
