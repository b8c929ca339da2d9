// Figures of a load run that do not depend much on how busy the machine is: CPU time of the server
// process (and, on PostgreSQL, of the database's backends serving it) per request, database
// transactions and index/table scans per request, rate-window row updates per request, and how
// many backends were active or waiting on a lock while the run went (sampled).
import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';

const TICK_MS = 1000 / 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux.

/** CPU time (ms) of a process so far, or null when /proc cannot tell. */
export function cpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "pid (comm) ": state is field 3, utime 14 and stime 15 (1-based over the whole line).
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

interface DbCounters {
  xacts: number;
  scans: number;
  rateUpdates: number;
  backendCpu: Map<number, number>;
}

export interface RunWork {
  serverCpuMsPerRequest: number | null;
  /** PostgreSQL only. */
  db?: {
    xactsPerRequest: number;
    scansPerRequest: number;
    rateUpdatesPerRequest: number;
    backendCpuMsPerRequest: number;
    /** Mean backends of this database busy running a statement, and of those waiting for a lock (and on what). */
    active: number;
    lockWaits: number;
    waits: string;
  };
}

/** Measures one run of `requests()` (which answers how many requests it made) against the server `pid`. */
export async function measureRun(pid: number, databaseUrl: string | undefined, run: () => Promise<number>): Promise<RunWork> {
  const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 2 }) : null;
  try {
    const cpu0 = cpuMs(pid);
    const db0 = pool ? await counters(pool) : null;
    const samples: { active: number; lock: number; events: string[] }[] = [];
    let sampling = !!pool;
    const sampler = (async () => {
      while (sampling && pool) {
        const { rows } = await pool.query<{ state: string | null; wait_event_type: string | null; wait_event: string | null }>(
          `SELECT state, wait_event_type, wait_event FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
        );
        const active = rows.filter((r) => r.state === 'active');
        samples.push({
          active: active.length,
          lock: active.filter((r) => r.wait_event_type === 'Lock').length,
          events: active.filter((r) => r.wait_event_type).map((r) => `${r.wait_event_type}:${r.wait_event}`),
        });
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const requests = await run();
    sampling = false;
    await sampler;
    const cpu1 = cpuMs(pid);
    const work: RunWork = { serverCpuMsPerRequest: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / requests };
    if (pool && db0) {
      // Backends report their counters to the statistics system at most once a second when idle.
      await new Promise((r) => setTimeout(r, 1500));
      const db1 = await counters(pool);
      let backendCpu = 0;
      for (const [p, ms] of db1.backendCpu) backendCpu += ms - (db0.backendCpu.get(p) ?? 0);
      const events = new Map<string, number>();
      for (const s of samples) for (const e of s.events) events.set(e, (events.get(e) ?? 0) + 1);
      const n = Math.max(1, samples.length);
      work.db = {
        // The sampler's own queries and the counters' are transactions of this database too.
        xactsPerRequest: (db1.xacts - db0.xacts - samples.length - 4) / requests,
        scansPerRequest: (db1.scans - db0.scans) / requests,
        rateUpdatesPerRequest: (db1.rateUpdates - db0.rateUpdates) / requests,
        backendCpuMsPerRequest: backendCpu / requests,
        active: samples.reduce((a, s) => a + s.active, 0) / n,
        lockWaits: samples.reduce((a, s) => a + s.lock, 0) / n,
        waits:
          [...events]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 3)
            .map(([e, c]) => `${e} ${(c / n).toFixed(1)}`)
            .join(', ') || 'none',
      };
    }
    return work;
  } finally {
    await pool?.end();
  }
}

async function counters(pool: pg.Pool): Promise<DbCounters> {
  await pool.query('SELECT pg_stat_clear_snapshot()');
  const xacts = await pool.query<{ n: string }>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()');
  const scans = await pool.query<{ n: string | null; upd: string | null }>(
    `SELECT sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)) AS n,
            sum(CASE WHEN relname = 'rate_windows' THEN n_tup_upd + n_tup_ins ELSE 0 END) AS upd
       FROM pg_stat_user_tables`,
  );
  const pids = await pool.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
  );
  const backendCpu = new Map<number, number>();
  for (const { pid } of pids.rows) {
    const ms = cpuMs(pid);
    if (ms !== null) backendCpu.set(pid, ms);
  }
  return { xacts: Number(xacts.rows[0].n), scans: Number(scans.rows[0].n ?? 0), rateUpdates: Number(scans.rows[0].upd ?? 0), backendCpu };
}

/** `uptime`'s load averages, for the report. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
}
