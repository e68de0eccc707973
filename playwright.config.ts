import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e/tests',
  outputDir: 'test-results/e2e',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['line']] : [['list']],
  use: { trace: 'retain-on-failure', screenshot: 'only-on-failure' },
});
