import { describe, expect, it } from 'vitest';
import { loggableUrl, prettyLine } from './logging.js';

describe('loggableUrl', () => {
  it('keeps the path, the names of query parameters and plain numbers, and hides every other value', () => {
    expect(loggableUrl('/rest/v1/bookmarks/0')).toBe('/rest/v1/bookmarks/0');
    expect(loggableUrl('/rest/v1/bookmarks/0?search=my%20secret%20note&page=2&perpage=50')).toBe('/rest/v1/bookmarks/0?search=…&page=2&perpage=50');
    expect(loggableUrl('/join?collection=12&token=abcdefghijklmnop')).toBe('/join?collection=12&token=…');
    expect(loggableUrl('/oauth/authorize?client_id=x&redirect_uri=https%3A%2F%2Fa.example%2Fcb&state=s3cr3t')).toBe('/oauth/authorize?client_id=…&redirect_uri=…&state=…');
  });
});

describe('prettyLine', () => {
  const at = Date.parse('2026-06-01T12:03:44.120Z');
  it('writes a finished request as status and time, with its request id', () => {
    const line = JSON.stringify({ level: 30, time: at, pid: 1, hostname: 'h', reqId: 'req-7', res: { statusCode: 200 }, responseTime: 3.14, msg: 'request completed' });
    expect(prettyLine(line)).toBe('12:03:44.120 INFO  [req-7] 200 3.1 ms\n');
  });
  it('writes an incoming request as method, URL and client', () => {
    const line = JSON.stringify({ level: 30, time: at, reqId: 'req-7', req: { method: 'GET', url: '/health', remoteAddress: '127.0.0.1' }, msg: 'incoming request' });
    expect(prettyLine(line)).toBe('12:03:44.120 INFO  [req-7] GET /health from 127.0.0.1\n');
  });
  it('writes other events as their message and fields, errors with their stack', () => {
    const warn = JSON.stringify({ level: 40, time: at, pid: 1, hostname: 'h', backend: 'sqlite', msg: 'WAL checkpoint failed' });
    expect(prettyLine(warn)).toBe('12:03:44.120 WARN  WAL checkpoint failed backend=sqlite\n');
    const error = JSON.stringify({ level: 50, time: at, err: { message: 'boom', stack: 'Error: boom\n    at x' }, msg: 'unhandled error' });
    expect(prettyLine(error)).toBe('12:03:44.120 ERROR unhandled error\n    Error: boom\n    at x\n');
  });
  it('passes a line that is not JSON through as it is', () => {
    expect(prettyLine('plain text')).toBe('plain text\n');
  });
});
