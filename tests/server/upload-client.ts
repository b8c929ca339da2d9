// Sends multipart/form-data uploads to a test server over real HTTP (the JSON helper `s.api` cannot).
import { readApiResponse, type ApiResponse, type TestServer } from '../helpers/server.js';

export interface Part {
  name: string;
  /** a file part when `filename` is given (or content is bytes), else a text field */
  filename?: string;
  content: string | Buffer | Uint8Array;
  type?: string;
}

export async function upload<T = any>(
  s: TestServer,
  method: string,
  path: string,
  parts: Part[],
  token: string | null,
): Promise<ApiResponse<T>> {
  const form = new FormData();
  for (const part of parts) {
    if (part.filename !== undefined || typeof part.content !== 'string') {
      const blob = new Blob([part.content as BlobPart], { type: part.type ?? 'application/octet-stream' });
      form.append(part.name, blob, part.filename ?? 'blob');
    } else {
      form.append(part.name, part.content);
    }
  }
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(s.url + path, { method, headers, body: form });
  return readApiResponse<T>(res);
}

/** GET with a token; the body as text (or JSON when it is JSON). */
export async function getRaw(url: string, token: string | null): Promise<{ status: number; headers: Headers; text: string; bytes: Buffer; json: any }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, bytes, json };
}

/** The smallest valid images of each cover format. */
export const PNG_1x1 = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
export const GIF_1x1 = Buffer.from('47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex');
export const JPEG_HEAD = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(64, 0), Buffer.from('ffd9', 'hex')]);
