// A minimal POSIX ustar reader and writer for backup archives: regular files and directories
// only, names up to 255 bytes (prefix + name), written and read with plain Node file calls.
// Any `tar` can list or unpack the archives (`tar -tf backup.tar`).
import fs from 'node:fs';

const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/** Splits `name` into ustar prefix (≤155) and name (≤100) at a slash; throws when it cannot. */
function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  for (let i = name.lastIndexOf('/'); i > 0; i = name.lastIndexOf('/', i - 1)) {
    const prefix = name.slice(0, i);
    const base = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base };
  }
  throw new Error(`The path ${name} is too long for the backup archive (ustar allows 255 bytes).`);
}

function header(name: string, size: number, type: '0' | '5', mtimeMs: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const { prefix, base } = splitName(name);
  block.write(base, 0, 100, 'utf8');
  block.write(octal(type === '5' ? 0o755 : 0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtimeMs / 1000), 12), 136, 'ascii');
  block.fill(' ', 148, 156);
  block.write(type, 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + ' ', 148, 'ascii');
  return block;
}

/** Writes a tar file entry by entry. */
export class TarWriter {
  private fd: number;
  constructor(file: string) {
    this.fd = fs.openSync(file, 'w');
  }
  directory(name: string, mtimeMs = Date.now()): void {
    fs.writeSync(this.fd, header(name.endsWith('/') ? name : `${name}/`, 0, '5', mtimeMs));
  }
  /** Adds a file from disk, copied in chunks. */
  file(name: string, source: string): void {
    const stat = fs.statSync(source);
    fs.writeSync(this.fd, header(name, stat.size, '0', stat.mtimeMs));
    const src = fs.openSync(source, 'r');
    try {
      const chunk = Buffer.alloc(1 << 20);
      let copied = 0;
      while (copied < stat.size) {
        const n = fs.readSync(src, chunk, 0, Math.min(chunk.length, stat.size - copied), copied);
        if (n === 0) throw new Error(`${source} became shorter while it was copied; run the backup again.`);
        fs.writeSync(this.fd, chunk, 0, n);
        copied += n;
      }
    } finally {
      fs.closeSync(src);
    }
    const pad = (BLOCK - (stat.size % BLOCK)) % BLOCK;
    if (pad) fs.writeSync(this.fd, Buffer.alloc(pad));
  }
  bytes(name: string, content: Buffer): void {
    fs.writeSync(this.fd, header(name, content.length, '0', Date.now()));
    fs.writeSync(this.fd, content);
    const pad = (BLOCK - (content.length % BLOCK)) % BLOCK;
    if (pad) fs.writeSync(this.fd, Buffer.alloc(pad));
  }
  /** Two zero blocks end the archive; the file is flushed to disk. */
  close(): void {
    fs.writeSync(this.fd, Buffer.alloc(BLOCK * 2));
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
  }
}

interface TarEntry {
  name: string;
  type: 'file' | 'directory';
  size: number;
  /** Writes the entry's content to `target` (files only). */
  extractTo(target: string): void;
}

/** Reads the entries of a tar file in order. Throws on a damaged header (checksum) or a truncated file. */
export function* readTar(file: string): Generator<TarEntry> {
  const fd = fs.openSync(file, 'r');
  try {
    const total = fs.fstatSync(fd).size;
    let at = 0;
    const block = Buffer.alloc(BLOCK);
    while (at + BLOCK <= total) {
      fs.readSync(fd, block, 0, BLOCK, at);
      if (block.every((b) => b === 0)) return;
      const stored = parseInt(block.toString('ascii', 148, 156).replace(/\0.*$/, '').trim(), 8);
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
      if (stored !== sum) throw new Error(`The backup archive is damaged (bad header at byte ${at}).`);
      const cut = (s: string) => s.replace(/\0.*$/s, '');
      const base = cut(block.toString('utf8', 0, 100));
      const prefix = cut(block.toString('utf8', 345, 500));
      const name = prefix ? `${prefix}/${base}` : base;
      const size = parseInt(cut(block.toString('ascii', 124, 136)).trim() || '0', 8);
      const typeFlag = String.fromCharCode(block[156]!);
      const start = at + BLOCK;
      if (start + size > total) throw new Error(`The backup archive is truncated (${name} is cut short).`);
      const type = typeFlag === '5' ? 'directory' : typeFlag === '0' || typeFlag === '\0' ? 'file' : null;
      if (!type) throw new Error(`The backup archive holds ${name} of a kind restore does not take (type ${typeFlag}).`);
      yield {
        name,
        type,
        size,
        extractTo(target: string) {
          const out = fs.openSync(target, 'w');
          try {
            const chunk = Buffer.alloc(1 << 20);
            let copied = 0;
            while (copied < size) {
              const n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, size - copied), start + copied);
              fs.writeSync(out, chunk, 0, n);
              copied += n;
            }
            fs.fsyncSync(out);
          } finally {
            fs.closeSync(out);
          }
        },
      };
      at = start + Math.ceil(size / BLOCK) * BLOCK;
    }
    throw new Error('The backup archive is truncated (no end marker).');
  } finally {
    fs.closeSync(fd);
  }
}
