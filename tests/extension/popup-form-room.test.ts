// @vitest-environment jsdom
// The room the popup holds for its form while it finds the bookmark (lib/popup/form-room.ts): how much the
// note and excerpt boxes grew on a page last time, kept per page in localStorage under a hash of its address.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberedFormRoom, rememberFormRoom } from '../../lib/popup/form-room.js';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe("the popup's remembered form room", () => {
  it('is 0 for a page never seen, then what was kept for that page only, until it fits 3 rows again', () => {
    expect(rememberedFormRoom('https://tides.example/a')).toBe(0);
    rememberFormRoom('https://tides.example/a', 92.4);
    expect(rememberedFormRoom('https://tides.example/a')).toBe(92.4);
    expect(rememberedFormRoom('https://tides.example/b')).toBe(0);
    rememberFormRoom('https://tides.example/a', 0);
    expect(rememberedFormRoom('https://tides.example/a')).toBe(0);
    expect(localStorage.getItem('tidemark.popupFormRoom')).toBe('{}');
  });

  it('keeps no address, only a hash of it', () => {
    rememberFormRoom('https://tides.example/a-secret-path', 40);
    expect(localStorage.getItem('tidemark.popupFormRoom')).not.toContain('tides');
  });

  it('keeps the last 200 pages: the one least recently kept goes first', () => {
    for (let i = 0; i < 201; i++) rememberFormRoom(`https://tides.example/${i}`, 10 + i);
    expect(rememberedFormRoom('https://tides.example/0')).toBe(0);
    expect(rememberedFormRoom('https://tides.example/1')).toBe(11);
    // Kept again, page 1 is the newest: page 2 goes next.
    rememberFormRoom('https://tides.example/1', 12);
    rememberFormRoom('https://tides.example/new', 30);
    expect(rememberedFormRoom('https://tides.example/1')).toBe(12);
    expect(rememberedFormRoom('https://tides.example/2')).toBe(0);
    expect(Object.keys(JSON.parse(localStorage.getItem('tidemark.popupFormRoom')!))).toHaveLength(200);
  });

  it('anything else stored under its name is no room; storage that fails leaves the popup as without it, and says so', () => {
    localStorage.setItem('tidemark.popupFormRoom', 'not json');
    expect(rememberedFormRoom('https://tides.example/a')).toBe(0);
    // Written anew.
    rememberFormRoom('https://tides.example/a', 50);
    expect(rememberedFormRoom('https://tides.example/a')).toBe(50);
    const [key] = Object.keys(JSON.parse(localStorage.getItem('tidemark.popupFormRoom')!));
    localStorage.setItem('tidemark.popupFormRoom', JSON.stringify({ [key!]: 'tall' }));
    expect(rememberedFormRoom('https://tides.example/a')).toBe(0);
    localStorage.setItem('tidemark.popupFormRoom', JSON.stringify({ [key!]: 1e6 }));
    expect(rememberedFormRoom('https://tides.example/a')).toBe(0);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('quota exceeded');
    });
    rememberFormRoom('https://tides.example/a', 50);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('quota exceeded'));
  });
});
