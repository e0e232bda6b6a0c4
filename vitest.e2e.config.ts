import { defineConfig } from 'vitest/config';

// `npm run test:e2e`: the suites that drive real editors and hooks installed from Debian's packages
// (test/e2e/: Neovim, pre-commit, VS Code in code-server with Chromium).
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
  },
});
