/**
 * What the app imports from `restlens/react`, taken from `@data-client/react` 0.9: the data-client
 * build resolves `restlens/react` here. Its provider is `CacheProvider` (0.9 has no
 * `DataProvider`), without the development-only DevTools button.
 */
import { CacheProvider } from '@data-client/react';
import type { ReactNode } from 'react';

export { useController, useSuspense } from '@data-client/react';

export function DataProvider({ children }: { children: ReactNode }) {
  return <CacheProvider devButton={null}>{children}</CacheProvider>;
}
