import { describe, expect, it } from 'vitest';
import { HostGate } from './host-gate.js';

// The gate's queue: one piece of work per host at a time, others beside it, and a waiter that
// leaves does not hold up the ones behind it.

/** A promise and the function that settles it. */
function latch() {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return { done, open };
}

describe('the host gate', () => {
  it('runs one piece of work per host at a time, and other hosts beside it', async () => {
    const gate = new HostGate(0);
    const order: string[] = [];
    const first = latch();
    const a1 = gate.run('a.example', async () => {
      order.push('a1 start');
      await first.done;
      order.push('a1 end');
    });
    const a2 = gate.run('a.example', async () => order.push('a2'));
    const b1 = gate.run('b.example', async () => order.push('b1'));
    await b1;
    expect(order).toEqual(['a1 start', 'b1']);
    first.open();
    await Promise.all([a1, a2]);
    expect(order).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
    expect(gate.size).toBe(0);
  });

  it('lets the next waiter through when one waiting before it gives up', async () => {
    const gate = new HostGate(0);
    const first = latch();
    const running = gate.run('a.example', () => first.done);
    const leaving = new AbortController();
    const left = gate.run('a.example', async () => 'should not run', leaving.signal);
    const next = gate.run('a.example', async () => 'next ran');
    leaving.abort(new Error('stopping'));
    await expect(left).rejects.toThrow('stopping');
    first.open();
    await running;
    expect(await next).toBe('next ran');
  });

  it('keeps the pause between two requests to one host', async () => {
    const gate = new HostGate(30);
    let endedAt = 0;
    await gate.run('a.example', async () => {
      endedAt = Date.now();
    });
    const startedAt = await gate.run('a.example', async () => Date.now());
    expect(startedAt - endedAt).toBeGreaterThanOrEqual(29);
  });
});
