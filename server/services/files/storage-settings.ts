// Which file storage the server uses, read from the environment:
//   TIDEMARK_S3_ENDPOINT, TIDEMARK_S3_BUCKET, TIDEMARK_S3_ACCESS_KEY, TIDEMARK_S3_SECRET_KEY,
//   TIDEMARK_S3_REGION (and optional TIDEMARK_S3_PREFIX): S3-compatible object storage;
//   TIDEMARK_FILES_DIR: a directory (shared by several instances, e.g. over NFS);
//   neither: `<data dir>/files`.

export interface S3Settings {
  /** A custom endpoint (MinIO, Ceph, Garage, ...) as an http(s) URL; unset for AWS itself. */
  endpoint?: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Prepended to every key ('' or ending in '/'), to share a bucket with other data. */
  prefix: string;
}

export type FileStorageSettings =
  | { kind: 'directory'; dir: string }
  | ({ kind: 's3' } & S3Settings)
  /** A configuration that cannot work; the server refuses to start with `problem` as the message. */
  | { kind: 'invalid'; problem: string };

const S3_VARIABLES = ['TIDEMARK_S3_ENDPOINT', 'TIDEMARK_S3_BUCKET', 'TIDEMARK_S3_ACCESS_KEY', 'TIDEMARK_S3_SECRET_KEY', 'TIDEMARK_S3_REGION'] as const;

/** The storage the environment asks for, or undefined for the default (`<data dir>/files`). */
export function fileStorageFromEnv(env: Record<string, string | undefined>): FileStorageSettings | undefined {
  const value = (name: string) => env[name]?.trim() || undefined;
  const anyS3 = S3_VARIABLES.some((name) => value(name)) || !!value('TIDEMARK_S3_PREFIX');
  const dir = value('TIDEMARK_FILES_DIR');
  if (!anyS3) return dir ? { kind: 'directory', dir } : undefined;
  if (dir) {
    return { kind: 'invalid', problem: 'Both TIDEMARK_FILES_DIR and TIDEMARK_S3_* are set: files are kept in one place. Unset one of them.' };
  }
  const needed = ['TIDEMARK_S3_BUCKET', 'TIDEMARK_S3_ACCESS_KEY', 'TIDEMARK_S3_SECRET_KEY', 'TIDEMARK_S3_REGION'].filter((name) => !value(name));
  if (needed.length) {
    return {
      kind: 'invalid',
      problem: `S3 file storage is half configured: ${needed.join(', ')} ${needed.length > 1 ? 'are' : 'is'} not set. Set ${S3_VARIABLES.join(', ')} (the endpoint may be left out for AWS itself), or unset them all to keep files in the data directory.`,
    };
  }
  const endpoint = value('TIDEMARK_S3_ENDPOINT');
  if (endpoint) {
    let url: URL | undefined;
    try {
      url = new URL(endpoint);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return { kind: 'invalid', problem: `TIDEMARK_S3_ENDPOINT must be an http:// or https:// URL such as https://s3.example.com:9000, got "${endpoint}".` };
    }
  }
  const bucket = value('TIDEMARK_S3_BUCKET')!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    return { kind: 'invalid', problem: `TIDEMARK_S3_BUCKET "${bucket}" is not a valid bucket name (3 to 63 lowercase letters, digits, dots and hyphens).` };
  }
  const prefix = (value('TIDEMARK_S3_PREFIX') ?? '').replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3',
    endpoint: endpoint?.replace(/\/+$/, ''),
    bucket,
    accessKeyId: value('TIDEMARK_S3_ACCESS_KEY')!,
    secretAccessKey: value('TIDEMARK_S3_SECRET_KEY')!,
    region: value('TIDEMARK_S3_REGION')!,
    prefix: prefix ? `${prefix}/` : '',
  };
}
