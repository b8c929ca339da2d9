// What the popup says after "Update text": the server's state of the page's text in words, and that a
// page cut to fit the upload limit was cut.
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('wxt/browser', () => import('./helpers/jsdom-browser.js'));

import { textSentOutcome } from '../../components/popup/UpdateText.js';
import { useRealMessages } from './helpers/messages.js';

beforeEach(() => useRealMessages());

describe('textSentOutcome', () => {
  it('says the text was updated when the server indexed it', () => {
    expect(textSentOutcome({ result: true, status: 'indexed', error: '', cutAt: 0 })).toEqual({ tone: 'ok', text: 'Text updated' });
  });

  it('says the text is on its way when the server reads it later', () => {
    expect(textSentOutcome({ result: true, status: 'pending', error: '', cutAt: 0 }).text).toBe('Text sent: searchable in a moment');
  });

  it("gives the server's reason when it could not read the page", () => {
    expect(textSentOutcome({ result: true, status: 'failed', error: 'the page has no readable text', cutAt: 0 })).toEqual({
      tone: 'error',
      text: 'The text was not updated: the page has no readable text',
    });
  });

  it('says when only the start of a long page was sent', () => {
    expect(textSentOutcome({ result: true, status: 'indexed', error: '', cutAt: 5 * 1024 * 1024 }).text).toBe('Text updated (only its first 5 MB: the page is longer)');
  });
});
