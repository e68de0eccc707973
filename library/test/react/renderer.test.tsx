import * as React from 'react';
import * as ReactDOM from 'react-dom/client';
import { expect, inject, it } from 'vitest';

// Each vitest project runs the React tests on one renderer (vitest.config.ts): these check that
// what the library and the tests import as `react` really is that renderer.
it(`the React tests of this project run on ${inject('renderer')}`, async () => {
  const renderer = inject('renderer');
  if (renderer === 'preact') {
    const preact = await import('preact');
    expect(React.Component).toBe(preact.Component);
  } else {
    const major = renderer.replace('react ', '');
    expect(React.version.split('.')[0]).toBe(major);
    expect(typeof ReactDOM.createRoot).toBe('function');
    expect('options' in React).toBe(false);
  }
});
