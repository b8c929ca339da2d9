// How far the import command got with each file, so a rerun resumes.

/** An `import_runs` row: how far the import command got with one file. */
export interface ImportRunRow {
  id: number;
  user_id: number;
  file_sha256: string;
  file_name: string;
  target: number;
  state: 'running' | 'done';
  next_index: number;
  total: number;
  created_count: number;
  duplicates: number;
  failed: number;
  started_at: string;
  updated_at: string;
}

export interface ImportTally {
  created: number;
  duplicates: number;
  failed: number;
}

/**
 * Progress of the import command, so an interrupted import continues where it stopped: one run
 * per (user, file content, target), the collections made for the file's folders, and how many
 * bookmarks (in file order) have been handled.
 */
export interface ImportRunsRepository {
  find(userId: number, fileSha256: string, target: number): Promise<ImportRunRow | undefined>;
  start(input: {
    userId: number;
    fileSha256: string;
    fileName: string;
    target: number;
    total: number;
  }): Promise<ImportRunRow>;
  /** Collections already made for this run's folders, by folder path. */
  folders(runId: number): Promise<Map<string, number>>;
  saveFolder(runId: number, folderPath: string, collectionId: number): Promise<void>;
  /** Records that bookmarks up to `nextIndex` are handled, adding this batch's tally. */
  advance(runId: number, nextIndex: number, tally: ImportTally): Promise<ImportRunRow>;
  finish(runId: number): Promise<ImportRunRow>;
}
