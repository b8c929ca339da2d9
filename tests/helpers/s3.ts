// An S3-compatible server for tests: s3rver (from npm, no downloaded binaries) listening on a
// random loopback port, speaking the S3 REST protocol over HTTP, with its objects in a temporary
// folder. Tests reach it with the real AWS SDK, as the server does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { FileStorageSettings } from '../../server/services/files/storage-settings.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** s3rver's one built-in account; other access keys are refused with InvalidAccessKeyId. */
export const S3_KEY = 'S3RVER';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The server configuration for this bucket. */
  settings: Extract<FileStorageSettings, { kind: 's3' }>;
  /** The same as TIDEMARK_S3_* environment variables, for `serve` processes. */
  env: Record<string, string>;
  /** Every key in the bucket, listed over the S3 protocol. */
  keys(prefix?: string): Promise<string[]>;
  /** Whether an object exists under `key` (HEAD over the S3 protocol). */
  has(key: string): Promise<boolean>;
  /** Stops answering (every open connection is cut): the storage is down. */
  close(): Promise<void>;
}

export async function startS3(bucket = 'tidemark-test'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const client = new S3Client({
    endpoint,
    region,
    forcePathStyle: true,
    credentials: { accessKeyId: S3_KEY, secretAccessKey: S3_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  let closed = false;
  return {
    endpoint,
    bucket,
    settings: { kind: 's3', endpoint, bucket, accessKeyId: S3_KEY, secretAccessKey: S3_KEY, region, prefix: '' },
    env: {
      TIDEMARK_S3_ENDPOINT: endpoint,
      TIDEMARK_S3_BUCKET: bucket,
      TIDEMARK_S3_ACCESS_KEY: S3_KEY,
      TIDEMARK_S3_SECRET_KEY: S3_KEY,
      TIDEMARK_S3_REGION: region,
    },
    async keys(prefix) {
      const answer = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (answer.Contents ?? []).map((o) => o.Key!).sort();
    },
    async has(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
        throw error;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      client.destroy();
      const stopped = server.close();
      server.httpServer?.closeAllConnections();
      await stopped;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
