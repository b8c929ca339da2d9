import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { isoNow } from '../../clock.js';
import { type ImportRunRow, type ImportTally, type ImportRunsRepository } from '../types/index.js';

/**
 * Progress of the import command, so an interrupted import continues where it stopped: one run
 * per (user, file content, target), the collections made for the file's folders, and how many
 * bookmarks (in file order) have been handled.
 */
export class SqliteImportRunsRepository implements ImportRunsRepository {
  constructor(private db: Db, private clock: Clock) {}

  async find(userId: number, fileSha256: string, target: number): Promise<ImportRunRow | undefined> {
    return this.db
      .prepare('SELECT * FROM import_runs WHERE user_id = ? AND file_sha256 = ? AND target = ?')
      .get(userId, fileSha256, target) as ImportRunRow | undefined;
  }

  async start(input: { userId: number; fileSha256: string; fileName: string; target: number; total: number }): Promise<ImportRunRow> {
    const now = isoNow(this.clock);
    const info = this.db
      .prepare(
        `INSERT INTO import_runs (user_id, file_sha256, file_name, target, state, total, started_at, updated_at)
         VALUES (?, ?, ?, ?, 'running', ?, ?, ?)`,
      )
      .run(input.userId, input.fileSha256, input.fileName, input.target, input.total, now, now);
    return this.db.prepare('SELECT * FROM import_runs WHERE id = ?').get(Number(info.lastInsertRowid)) as ImportRunRow;
  }

  /** Collections already made for this run's folders, by folder path. */
  async folders(runId: number): Promise<Map<string, number>> {
    const rows = this.db.prepare('SELECT folder_path, collection_id FROM import_run_folders WHERE run_id = ?').all(runId) as {
      folder_path: string;
      collection_id: number;
    }[];
    return new Map(rows.map((r) => [r.folder_path, r.collection_id]));
  }

  async saveFolder(runId: number, folderPath: string, collectionId: number): Promise<void> {
    this.db
      .prepare('INSERT OR REPLACE INTO import_run_folders (run_id, folder_path, collection_id) VALUES (?, ?, ?)')
      .run(runId, folderPath, collectionId);
  }

  /** Records that bookmarks up to `nextIndex` are handled, adding this batch's tally. */
  async advance(runId: number, nextIndex: number, tally: ImportTally): Promise<ImportRunRow> {
    this.db
      .prepare(
        `UPDATE import_runs SET next_index = ?, created_count = created_count + ?, duplicates = duplicates + ?,
           failed = failed + ?, updated_at = ? WHERE id = ?`,
      )
      .run(nextIndex, tally.created, tally.duplicates, tally.failed, isoNow(this.clock), runId);
    return this.db.prepare('SELECT * FROM import_runs WHERE id = ?').get(runId) as ImportRunRow;
  }

  async finish(runId: number): Promise<ImportRunRow> {
    this.db.prepare(`UPDATE import_runs SET state = 'done', updated_at = ? WHERE id = ?`).run(isoNow(this.clock), runId);
    return this.db.prepare('SELECT * FROM import_runs WHERE id = ?').get(runId) as ImportRunRow;
  }
}
