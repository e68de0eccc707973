import { describe, expect, it } from 'vitest';
import * as core from '../../src/index.js';
import * as react from '../../src/react/index.js';

describe('restlens/react re-exports what @data-client/react re-exports from its core', () => {
  it('Controller and ExpiryStatus, the very ones of restlens', () => {
    expect(react.Controller).toBe(core.Controller);
    expect(react.ExpiryStatus).toBe(core.ExpiryStatus);
  });
});
