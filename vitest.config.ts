import { defineConfig } from 'vitest/config';

// `npm test`: everything that needs only Node, npm and python3. The suites under test/e2e/ need
// system packages (Neovim, pre-commit, Chromium for code-server): `npm run test:e2e`
// (vitest.e2e.config.ts), which .ci/run calls after installing them.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
