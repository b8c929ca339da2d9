import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { isoNow } from '../../clock.js';
import { type ImportRunRow, type ImportTally, type ImportRunsRepository } from '../types/index.js';

/**
 * Progress of the import command on PostgreSQL, so an interrupted import continues where it
 * stopped: one run per (user, file content, target), the collections made for the file's folders,
 * and how many bookmarks (in file order) have been handled.
 */
export class PgImportRunsRepository implements ImportRunsRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async find(userId: number, fileSha256: string, target: number): Promise<ImportRunRow | undefined> {
    return (
      await this.pool.query<ImportRunRow>('SELECT * FROM import_runs WHERE user_id = $1 AND file_sha256 = $2 AND target = $3', [userId, fileSha256, target])
    ).rows[0];
  }

  async start(input: { userId: number; fileSha256: string; fileName: string; target: number; total: number }): Promise<ImportRunRow> {
    const now = isoNow(this.clock);
    const { rows } = await this.pool.query<ImportRunRow>(
      `INSERT INTO import_runs (user_id, file_sha256, file_name, target, state, total, started_at, updated_at)
       VALUES ($1, $2, $3, $4, 'running', $5, $6, $7) RETURNING *`,
      [input.userId, input.fileSha256, input.fileName, input.target, input.total, now, now],
    );
    return rows[0];
  }

  async folders(runId: number): Promise<Map<string, number>> {
    const { rows } = await this.pool.query<{ folder_path: string; collection_id: number }>(
      'SELECT folder_path, collection_id FROM import_run_folders WHERE run_id = $1',
      [runId],
    );
    return new Map(rows.map((r) => [r.folder_path, r.collection_id]));
  }

  async saveFolder(runId: number, folderPath: string, collectionId: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO import_run_folders (run_id, folder_path, collection_id) VALUES ($1, $2, $3)
       ON CONFLICT (run_id, folder_path) DO UPDATE SET collection_id = EXCLUDED.collection_id`,
      [runId, folderPath, collectionId],
    );
  }

  async advance(runId: number, nextIndex: number, tally: ImportTally): Promise<ImportRunRow> {
    const { rows } = await this.pool.query<ImportRunRow>(
      `UPDATE import_runs SET next_index = $1, created_count = created_count + $2, duplicates = duplicates + $3,
         failed = failed + $4, updated_at = $5 WHERE id = $6 RETURNING *`,
      [nextIndex, tally.created, tally.duplicates, tally.failed, isoNow(this.clock), runId],
    );
    return rows[0];
  }

  async finish(runId: number): Promise<ImportRunRow> {
    const { rows } = await this.pool.query<ImportRunRow>(`UPDATE import_runs SET state = 'done', updated_at = $1 WHERE id = $2 RETURNING *`, [
      isoNow(this.clock),
      runId,
    ]);
    return rows[0];
  }
}
