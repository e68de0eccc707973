import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['library/test/**/*.test.{ts,tsx}'],
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
    typecheck: { enabled: true, include: ['library/test/**/*.test-d.ts'] },
  },
});
