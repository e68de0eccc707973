// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Manifest, manifestFor } from '../../scripts/build-extension.mjs';
import { lensIcon } from '../../scripts/icons.mjs';

/** The one source manifest, at the repository root. */
const source = JSON.parse(
  readFileSync(new URL('../../manifest.json', import.meta.url), 'utf8'),
) as Manifest;

const { background: _background, ...shared } = source;

describe('manifestFor', () => {
  it('chrome: runs the background as a service worker and adds nothing Firefox-specific', () => {
    const chrome = manifestFor('chrome', source);
    expect(chrome.background).toEqual({ service_worker: 'background.js' });
    expect(chrome).not.toHaveProperty('browser_specific_settings');
    expect(chrome).toEqual({ ...shared, background: { service_worker: 'background.js' } });
  });

  it('firefox: runs background scripts, with the gecko id, minimum version and data collection', () => {
    const firefox = manifestFor('firefox', source);
    expect(firefox.background).toEqual({ scripts: ['background.js'] });
    expect(firefox.browser_specific_settings).toEqual({
      gecko: {
        id: expect.stringMatching(/^[a-zA-Z0-9-._]*@[a-zA-Z0-9-._]+$/),
        strict_min_version: '140.0',
        data_collection_permissions: { required: ['none'] },
      },
      gecko_android: { strict_min_version: '142.0' },
    });
    const { background: _b, browser_specific_settings: _settings, ...rest } = firefox;
    expect(rest).toEqual(shared);
  });

  it('replaces whatever background the source declares, and leaves the source unchanged', () => {
    const odd: Manifest = {
      ...source,
      background: { page: 'old.html', persistent: true, service_worker: 'x.js' },
    };
    const before = structuredClone(odd);
    expect(manifestFor('chrome', odd).background).toEqual({ service_worker: 'background.js' });
    expect(manifestFor('firefox', odd).background).toEqual({ scripts: ['background.js'] });
    expect(odd).toEqual(before);
  });
});

describe('manifest.json', () => {
  it('is MV3 with a devtools page, icons, and no permissions beyond its content script and storage', () => {
    expect(source.manifest_version).toBe(3);
    expect(source.devtools_page).toBe('devtools.html');
    // `storage`: the Recorder's list outlives the panel (README, "Permissions and security").
    expect(source.permissions).toEqual(['storage']);
    expect(source).not.toHaveProperty('host_permissions');
    expect(source).not.toHaveProperty('optional_permissions');
    expect(source).not.toHaveProperty('web_accessible_resources');
    expect(source).not.toHaveProperty('externally_connectable');
    expect(source).not.toHaveProperty('content_security_policy');
    expect(Object.keys(source.icons as object)).toEqual(['16', '32', '48', '128']);
  });

  it('runs one content script in top frames of http(s) pages, from document_start', () => {
    expect(source.content_scripts).toEqual([
      { matches: ['http://*/*', 'https://*/*'], js: ['content.js'], run_at: 'document_start' },
    ]);
  });
});

describe('icons', () => {
  it.each([16, 32, 48, 128])('draws a %i px square PNG', (size) => {
    const png = lensIcon(size);
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
  });
});
