// The simulation thread's turn (src/recovery/neighbourhood/thread-turn.ts): a restricted solve's
// JavaScript waits while the integrated solve holds the thread, goes on when it lends it, and nobody
// is held past the turn's end, so a slow integrated solve cannot keep the restricted plans that
// stand in for it from being found.
import { describe, expect, it } from 'vitest';
import { ThreadTurn } from '../../src/recovery/neighbourhood/thread-turn.ts';

const settled = async (promise: Promise<void>): Promise<boolean> => {
  let done = false;
  void promise.then(() => { done = true; });
  await new Promise<void>((resolve) => setImmediate(resolve));
  return done;
};

describe('ThreadTurn', () => {
  it('does not hold a restricted solve while the integrated one does not hold the thread', () => {
    const turn = new ThreadTurn(performance.now() + 60_000);
    expect(turn.free()).toBeNull();
    turn.hold();
    turn.lend();
    expect(turn.free()).toBeNull();
    turn.close();
  });

  it('holds a restricted solve while the integrated solve holds the thread, and lets it go when lent', async () => {
    const turn = new ThreadTurn(performance.now() + 60_000);
    turn.hold();
    const waiting = turn.free();
    expect(waiting).not.toBeNull();
    expect(await settled(waiting!)).toBe(false);
    turn.lend();
    expect(await settled(waiting!)).toBe(true);
    turn.close();
  });

  it('holds nobody from its end on, and lets those held go then', async () => {
    const turn = new ThreadTurn(performance.now() + 50);
    turn.hold();
    const waiting = turn.free()!;
    expect(await settled(waiting)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await settled(waiting)).toBe(true);
    expect(turn.free()).toBeNull();
    turn.close();
  });

  it('lets everyone go when the simulation ends', async () => {
    const turn = new ThreadTurn(performance.now() + 60_000);
    turn.hold();
    const waiting = turn.free()!;
    turn.close();
    expect(await settled(waiting)).toBe(true);
  });
});
