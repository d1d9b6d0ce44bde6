import { describe, expect, it } from 'vitest';
import {
  DELIVERY_TIMEOUT_MS,
  DISPATCH_WINDOW_MS,
  FIRST_TRY_TIMEOUT_MS,
  inLanes,
  LEASE_MS,
  PER_CLIENT_SENDS,
  SLOW_SEND_MS,
  SEND_CONCURRENCY,
  SWEEP_BUDGET_MS,
  type LaneTask,
} from './dispatch-webhooks.js';

/** A task that runs until the test releases it, noting when it started and ended. */
function gate() {
  let open!: (outcome: 'done' | 'slow') => void;
  const promise = new Promise<'done' | 'slow'>((resolve) => (open = resolve));
  return { promise, open };
}

describe('the send lanes (issue 35.2: one client’s slow endpoints never hold another’s sends, and hold a run for a bounded time)', () => {
  it('the limits hold together: a first try is shorter than a delivery’s timeout, a run ends within its lease, a client never fills the run', () => {
    expect(SLOW_SEND_MS).toBeLessThan(FIRST_TRY_TIMEOUT_MS);
    expect(FIRST_TRY_TIMEOUT_MS).toBeLessThan(DELIVERY_TIMEOUT_MS);
    expect(DISPATCH_WINDOW_MS + FIRST_TRY_TIMEOUT_MS).toBeLessThan(LEASE_MS);
    expect(SWEEP_BUDGET_MS + DELIVERY_TIMEOUT_MS).toBeLessThan(LEASE_MS);
    expect(PER_CLIENT_SENDS * 2).toBeLessThanOrEqual(SEND_CONCURRENCY);
  });

  it('a client runs at most PER_CLIENT_SENDS sends at once, and another client’s send starts while all of them hang', async () => {
    const started: string[] = [];
    const hanging = Array.from({ length: 20 }, () => gate());
    const tasks: LaneTask[] = hanging.map((g, n) => ({
      lane: `x-order-${n}`,
      tenant: 'x',
      run: () => {
        started.push(`x${n}`);
        return g.promise;
      },
    }));
    let yDone = false;
    tasks.push({
      lane: 'y-order',
      tenant: 'y',
      run: () => {
        started.push('y');
        yDone = true;
        return Promise.resolve('done');
      },
    });
    const run = inLanes(tasks, { concurrency: SEND_CONCURRENCY, perTenant: PER_CLIENT_SENDS, deadline: Infinity, now: () => 0 });
    for (let turn = 0; turn < 10; turn++) await Promise.resolve();

    expect(yDone).toBe(true); // while every one of x's is still hanging
    expect(started.filter((s) => s.startsWith('x'))).toHaveLength(PER_CLIENT_SENDS);
    for (const g of hanging) g.open('done');
    await run;
    expect(started.filter((s) => s.startsWith('x'))).toHaveLength(20);
  });

  it('once a client’s send is slow, its other tasks are handed off (not run); another client’s still run; nothing starts after the deadline', async () => {
    const ran: string[] = [];
    const handedOff: string[] = [];
    const task = (tenant: string, lane: string, outcome: 'done' | 'slow'): LaneTask => ({
      lane,
      tenant,
      run: () => {
        ran.push(lane);
        return Promise.resolve(outcome);
      },
      handOff: () => {
        handedOff.push(lane);
        return Promise.resolve();
      },
    });
    await inLanes([task('x', 'x1', 'slow'), task('x', 'x1', 'done'), task('x', 'x2', 'done'), task('y', 'y1', 'done'), task('y', 'y1', 'done')], {
      concurrency: SEND_CONCURRENCY,
      perTenant: 1,
      deadline: Infinity,
      now: () => 0,
      cutSlowTenants: true,
    });
    expect(ran.filter((lane) => lane.startsWith('x'))).toEqual(['x1']);
    expect(handedOff.sort()).toEqual(['x1', 'x2']);
    expect(ran.filter((lane) => lane.startsWith('y'))).toEqual(['y1', 'y1']);

    const late: string[] = [];
    await inLanes([{ ...task('z', 'z1', 'done'), handOff: () => Promise.resolve(void late.push('z1')) }], {
      concurrency: SEND_CONCURRENCY,
      perTenant: PER_CLIENT_SENDS,
      deadline: 10,
      now: () => 10,
    });
    expect(late).toEqual(['z1']);
  });

  it('a run with a failed send ends only after its other sends ended: none outlives it to be sent again by the batch given again', async () => {
    const inFlight = gate();
    const ended: string[] = [];
    const tasks: LaneTask[] = [
      { lane: 'a', tenant: 'shop-1', run: () => inFlight.promise.then((outcome) => (ended.push('a'), outcome)) },
      { lane: 'b', tenant: 'shop-2', run: () => Promise.reject(new Error('the attempt could not be logged')) },
    ];
    let settled = false;
    const run = inLanes(tasks, { concurrency: SEND_CONCURRENCY, perTenant: PER_CLIENT_SENDS, deadline: Infinity, now: () => 0 }).finally(
      () => (settled = true),
    );
    run.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled, 'still running while a send is in flight').toBe(false);
    inFlight.open('done');
    await expect(run).rejects.toThrow('the attempt could not be logged');
    expect(ended).toEqual(['a']);
  });

  it('the bound the docs state: a client whose receiver always answers just under SLOW_SEND_MS holds the run past one first try, up to DISPATCH_WINDOW_MS + FIRST_TRY_TIMEOUT_MS (simulated clock)', async () => {
    let now = 0;
    const handedOff: number[] = [];
    // One lane of 100 events; each send takes just under SLOW_SEND_MS, so the client is never cut as slow.
    const tasks: LaneTask[] = Array.from({ length: 100 }, (_, n) => ({
      lane: 'x-order',
      tenant: 'x',
      run: () => {
        now += SLOW_SEND_MS - 1;
        return Promise.resolve('done' as const);
      },
      handOff: () => Promise.resolve(void handedOff.push(n)),
    }));
    await inLanes(tasks, { concurrency: SEND_CONCURRENCY, perTenant: PER_CLIENT_SENDS, deadline: DISPATCH_WINDOW_MS, now: () => now, cutSlowTenants: true });

    expect(now).toBeGreaterThan(FIRST_TRY_TIMEOUT_MS); // not "one first try at most"
    expect(now).toBeLessThanOrEqual(DISPATCH_WINDOW_MS + FIRST_TRY_TIMEOUT_MS);
    expect(handedOff.length).toBeGreaterThan(0); // the rest are the sweep's
    expect(100 - handedOff.length).toBe(Math.ceil(DISPATCH_WINDOW_MS / (SLOW_SEND_MS - 1)));
  });
});
