// Runs in a worker thread next to the server (see checkpointer.ts): copies the write-ahead log back
// into the database file now and then, on a connection of its own, so that no request ever waits
// for that copy or its fsync. Plain JavaScript so it loads the same under tsx, Vitest and node.
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);

const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
// This connection only checkpoints; it never needs the log copied on its own commits.
db.pragma('wal_autocheckpoint = 0');

let stopping = false;
let timer = null;

function checkpoint(report) {
  try {
    // PASSIVE never blocks the server's readers or writer: it copies what no reader still needs.
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    if (report || row.log > 0) parentPort.postMessage({ kind: 'checkpointed', log: row.log, checkpointed: row.checkpointed });
  } catch (err) {
    parentPort.postMessage({ kind: 'error', message: String(err && err.message ? err.message : err) });
  }
}

function loop() {
  if (stopping) return;
  checkpoint();
  timer = setTimeout(loop, workerData.intervalMs);
}

parentPort.on('message', (message) => {
  if (message === 'now') {
    checkpoint(true);
    return;
  }
  if (message === 'stop') {
    stopping = true;
    if (timer) clearTimeout(timer);
    checkpoint();
    db.close();
    parentPort.postMessage({ kind: 'stopped' });
    parentPort.close();
  }
});

loop();
