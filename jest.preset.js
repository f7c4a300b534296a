// One Jest setup for every Node-side project: SWC transpiles TypeScript with decorator metadata
// (NestJS needs it), and the workspace libraries resolve to their sources so tests need no build.
const path = require('node:path');

const libs = path.join(__dirname, 'libs');

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    '^@shop/(shared|i18n|embedded-mongo|api-client)$': `${libs}/$1/src`,
  },
  testMatch: ['**/?(*.)+(spec|test|e2e-spec).ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};
