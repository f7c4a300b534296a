module.exports = { ...require('../jest.preset.js'), testMatch: ['**/*.e2e.ts'], testTimeout: 120000 };
