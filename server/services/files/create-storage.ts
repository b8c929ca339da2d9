import path from 'node:path';
import { DirectoryStorage } from './directory-storage.js';
import { S3Storage } from './s3-storage.js';
import type { FileStorageSettings } from './storage-settings.js';
import { FileStorageError, type FileStorage } from './storage.js';

/**
 * The file storage the configuration names: a directory (`<dataDir>/files` unless another is
 * given) or an S3 bucket. Throws FileStorageError for a configuration that cannot work; call
 * `check()` on the result to find out whether it can be reached and written.
 */
export function createFileStorage(settings: FileStorageSettings | undefined, dataDir: string): FileStorage {
  const chosen = settings ?? { kind: 'directory', dir: path.join(dataDir, 'files') };
  switch (chosen.kind) {
    case 'directory':
      return new DirectoryStorage(chosen.dir);
    case 's3':
      return new S3Storage(chosen, path.join(dataDir, 'files', 'tmp'));
    case 'invalid':
      throw new FileStorageError(chosen.problem);
  }
}
