import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import { ApiError } from '../../errors.js';
import { stageStream, sweepOldFiles, type StagedFile } from './staging.js';
import { checkKey, FileStorageError, newFileId, type FileStorage } from './storage.js';
import type { S3Settings } from './storage-settings.js';

// The SDK warns once per process that its releases after January 2027 need Node 22; this project
// supports Node 20.12+ with the version it pins, so the warning would only be noise in server logs.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * The AWS SDK's S3 client, loaded (synchronously: the package is CommonJS) when the first S3 storage
 * is made: about 0.25 s of CPU that a server storing files in a directory, and every CLI command,
 * does not pay.
 */
let loadedSdk: typeof S3Sdk | undefined;
const requireHere = createRequire(import.meta.url);
function s3Sdk(): typeof S3Sdk {
  return (loadedSdk ??= requireHere('@aws-sdk/client-s3') as typeof S3Sdk);
}

/** Start-up check budget; Fastify gives an onReady hook 10 s. */
const CHECK_TIMEOUT_MS = 8000;
/** A streamed upload cannot be replayed by the SDK; commit() starts it again from the staged file this often. */
const COMMIT_ATTEMPTS = 3;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** The S3 error code, HTTP status and network error code of a failed call, whichever it has. */
function describeFailure(error: unknown): { code: string; status?: number; network: boolean; message: string } {
  const e = error as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = error instanceof s3Sdk().S3ServiceException ? error.$metadata.httpStatusCode : e.$metadata?.httpStatusCode;
  const code = e.code && NETWORK_CODES.has(e.code) ? e.code : (e.name ?? e.code ?? 'Error');
  const network = (!!e.code && NETWORK_CODES.has(e.code)) || e.name === 'TimeoutError' || e.name === 'RequestTimeout' || status === undefined;
  return { code, status, network, message: e.message ?? String(error) };
}

/**
 * Files as objects in an S3-compatible bucket (`TIDEMARK_S3_*`). Uploads are staged in a local
 * temporary folder while they are checked (size, type, quota) and then streamed to the bucket;
 * objects are streamed back to the client when served. With a custom endpoint (MinIO, Ceph,
 * Garage, a test server) requests use path-style addresses (`<endpoint>/<bucket>/<key>`).
 */
export class S3Storage implements FileStorage {
  readonly description: string;
  private readonly client: S3Sdk.S3Client;
  private readonly sdk = s3Sdk();
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(
    private readonly settings: S3Settings,
    /** A local folder for uploads in progress (not shared; one per machine is fine). */
    private readonly stagingDir: string,
  ) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix;
    this.description = `S3 bucket "${settings.bucket}"${settings.endpoint ? ` at ${settings.endpoint}` : ` in ${settings.region}`}`;
    this.client = new this.sdk.S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: !!settings.endpoint,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Checksums only where the API requires them: many S3-compatible servers do not understand
      // the SDK's default streaming checksum trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
      // Without a logger the SDK prints its own warnings on the console; every failure it would
      // warn about reaches the caller as an error (a 503 envelope, or the start-up message) anyway.
      logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    });
  }

  private key(key: string): string {
    return this.prefix + checkKey(key);
  }

  /** An error while serving: the storage is down or refusing, which the client can only wait out. */
  private unavailable(action: string, error: unknown): ApiError {
    const failure = describeFailure(error);
    return new ApiError(
      503,
      `File storage (${this.description}) could not ${action}: ${failure.code}${failure.status ? ` (HTTP ${failure.status})` : ''}. ` +
        'Try again in a moment; if it keeps happening, the server\'s operator should check the object storage.',
    );
  }

  async check(): Promise<void> {
    const where = this.settings.endpoint ? `the S3 endpoint ${this.settings.endpoint}` : `S3 in region ${this.settings.region}`;
    const probe = `${this.prefix}.tidemark-probe/${newFileId(8)}`;
    // A server that accepts connections and never answers must not hold the start up for long.
    const abortSignal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
    try {
      await this.client.send(new this.sdk.ListObjectsV2Command({ Bucket: this.bucket, MaxKeys: 1, Prefix: this.prefix || undefined }), { abortSignal });
      await this.client.send(new this.sdk.PutObjectCommand({ Bucket: this.bucket, Key: probe, Body: 'probe', ContentType: 'text/plain' }), { abortSignal });
      await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: probe }), { abortSignal });
    } catch (error) {
      const failure = abortSignal.aborted
        ? { code: 'Timeout', status: undefined, network: true, message: `no answer within ${CHECK_TIMEOUT_MS / 1000} s` }
        : describeFailure(error);
      let advice: string;
      if (failure.code === 'NoSuchBucket' || failure.status === 404) {
        advice = `The bucket "${this.bucket}" does not exist at ${where}. Create it, or set TIDEMARK_S3_BUCKET to an existing bucket.`;
      } else if (['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'InvalidToken', 'ExpiredToken'].includes(failure.code) || failure.status === 403 || failure.status === 401) {
        advice =
          `${where[0].toUpperCase()}${where.slice(1)} refused the credentials for bucket "${this.bucket}". ` +
          'Check TIDEMARK_S3_ACCESS_KEY and TIDEMARK_S3_SECRET_KEY, and that this key may list, read, write and delete objects in the bucket.';
      } else if (failure.code === 'PermanentRedirect' || failure.code === 'AuthorizationHeaderMalformed' || failure.status === 301) {
        advice = `The bucket "${this.bucket}" is in another region than "${this.settings.region}". Set TIDEMARK_S3_REGION to the bucket's region.`;
      } else if (failure.network) {
        advice = `Cannot reach ${where}. Check TIDEMARK_S3_ENDPOINT (scheme, host and port) and that the storage server is running and reachable from this machine.`;
      } else {
        advice = `${where[0].toUpperCase()}${where.slice(1)} answered an error for bucket "${this.bucket}". Check the TIDEMARK_S3_* settings.`;
      }
      throw new FileStorageError(`File storage is not usable. ${advice} (${failure.code}${failure.status ? `, HTTP ${failure.status}` : ''}: ${failure.message})`);
    }
  }

  stage(stream: Readable): Promise<StagedFile> {
    return stageStream(stream, this.stagingDir);
  }

  async commit(staged: StagedFile, key: string, contentType = 'application/octet-stream'): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(
          new this.sdk.PutObjectCommand({
            Bucket: this.bucket,
            Key: this.key(key),
            Body: fs.createReadStream(staged.tmp),
            ContentLength: staged.size,
            ContentType: contentType,
          }),
        );
        break;
      } catch (error) {
        const failure = describeFailure(error);
        const retryable = failure.network || (failure.status !== undefined && failure.status >= 500);
        if (!retryable || attempt >= COMMIT_ATTEMPTS) throw this.unavailable('store the upload', error);
      }
    }
    await this.discard(staged.tmp);
  }

  async write(key: string, data: Buffer | string, contentType = 'application/octet-stream'): Promise<{ size: number; sha256: string }> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    try {
      await this.client.send(new this.sdk.PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: bytes, ContentType: contentType }));
    } catch (error) {
      throw this.unavailable('store the file', error);
    }
    return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  async open(key: string): Promise<Readable | null> {
    try {
      const answer = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      const body = answer.Body;
      if (body instanceof Readable) return body;
      if (!body) return null;
      return Readable.fromWeb(body.transformToWebStream() as Parameters<typeof Readable.fromWeb>[0]);
    } catch (error) {
      const failure = describeFailure(error);
      if (failure.code === 'NoSuchKey' || failure.status === 404) return null;
      throw this.unavailable('read the file', error);
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
    } catch (error) {
      const failure = describeFailure(error);
      if (failure.code === 'NoSuchKey' || failure.status === 404) return;
      throw this.unavailable('delete the file', error);
    }
  }

  async discard(tmp: string): Promise<void> {
    await fs.promises.rm(tmp, { force: true });
  }

  sweepTemp(ageMs: number, now = Date.now()): Promise<number> {
    return sweepOldFiles(this.stagingDir, ageMs, now);
  }
}
