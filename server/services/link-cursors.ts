import { createHmac } from 'node:crypto';

// The /links change log is numbered by one sequence shared by every account, so a cursor that
// showed those numbers would tell a user how many changes everybody else made between two of their
// own. Cursors are therefore the number put through a keyed permutation of its own per account:
// the client keeps and returns it as before, and can learn nothing from its value.

const HALF_BITS = 26;
const HALF = 2 ** HALF_BITS;
const MASK = HALF - 1;
/** Cursors handed out lie in [2^52, 2^53): an integer in JSON, and never a raw sequence number. */
const OPAQUE_BASE = 2 ** 52;
const ROUNDS = 4;

/** Encodes and decodes the opaque cursors of GET /links, one permutation per account. */
export class LinkCursors {
  private secret: Promise<string> | undefined;

  /** `serverKey` answers a secret shared by every instance (created once, kept in the database). */
  constructor(private readonly serverKey: () => Promise<string>) {}

  /** The cursor a client is given for the change numbered `seq` (0: none yet). */
  async encode(userId: number, seq: number): Promise<number> {
    const key = await this.accountKey(userId);
    let left = Math.floor(seq / HALF) & MASK;
    let right = seq & MASK;
    for (let round = 0; round < ROUNDS; round++) [left, right] = [right, (left ^ mix(key, round, right)) >>> 0];
    return OPAQUE_BASE + left * HALF + right;
  }

  /** The change number a cursor stands for, or null when it is not one this server handed out. */
  async decode(userId: number, cursor: number): Promise<number | null> {
    if (!Number.isSafeInteger(cursor) || cursor < OPAQUE_BASE) return null;
    const key = await this.accountKey(userId);
    const value = cursor - OPAQUE_BASE;
    let left = Math.floor(value / HALF);
    let right = value % HALF;
    for (let round = ROUNDS - 1; round >= 0; round--) [left, right] = [(right ^ mix(key, round, left)) >>> 0, left];
    return left * HALF + right;
  }

  private async accountKey(userId: number): Promise<Buffer> {
    // A failed read is not kept: the next request asks the database again.
    this.secret ??= this.serverKey().catch((err: unknown) => {
      this.secret = undefined;
      throw err;
    });
    return createHmac('sha256', await this.secret).update(`links-cursor:${userId}`).digest();
  }
}

/** One Feistel round: 26 bits of HMAC(account key, round, half). */
function mix(key: Buffer, round: number, half: number): number {
  return createHmac('sha256', key).update(`${round}:${half}`).digest().readUInt32BE(0) & MASK;
}
