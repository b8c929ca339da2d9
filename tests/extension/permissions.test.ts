// The options page asks for host access only for servers outside the manifest's built-in host.
import { describe, expect, it } from 'vitest';
import { needsHostPermission, originPattern } from '../../components/options/permissions.js';

describe('server host permission', () => {
  it('needs no prompt for the default server\'s host, on any port', () => {
    expect(needsHostPermission('http://localhost:8787')).toBe(false);
    expect(needsHostPermission('http://localhost:9999/')).toBe(false);
  });

  it('asks for any other server, as a pattern for its host', () => {
    expect(needsHostPermission('https://bookmarks.example.org')).toBe(true);
    expect(needsHostPermission('http://127.0.0.1:8787')).toBe(true);
    expect(originPattern('https://bookmarks.example.org:8443/path')).toBe('https://bookmarks.example.org/*');
  });
});
