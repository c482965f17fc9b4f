import { beforeEach, describe, expect, it } from 'vitest';

import { TickQueue, dequeue, enqueue, overlay, parseQueue, type PendingTick } from './pendingTicks';

const tick = (itemId: string, checked: boolean, at: string, listId = 'l1'): PendingTick => ({
  listId,
  itemId,
  checked,
  at,
});

describe('pending ticks', () => {
  beforeEach(() => localStorage.clear());

  it('keeps order, and a newer tick of an item replaces the older one', () => {
    let q = enqueue([], tick('a', true, 't1'));
    q = enqueue(q, tick('b', true, 't2'));
    q = enqueue(q, tick('a', false, 't3'));
    expect(q.map((t) => [t.itemId, t.checked])).toEqual([
      ['b', true],
      ['a', false],
    ]);
  });

  it('removes only the tick that was sent, not a newer one of the same item', () => {
    const q = [tick('a', false, 't3')];
    expect(dequeue(q, tick('a', true, 't1'))).toEqual(q);
    expect(dequeue(q, tick('a', false, 't3'))).toEqual([]);
  });

  it('lays queued ticks over a list and says which are pending', () => {
    const list = {
      id: 'l1',
      items: [
        { id: 'a', checked: false },
        { id: 'b', checked: true },
        { id: 'c', checked: false },
      ],
    };
    const { list: shown, pending } = overlay(list, [
      tick('a', true, 't1'),
      tick('b', true, 't2'),
      tick('x', true, 't3', 'other'),
    ]);
    expect(shown.items.map((i) => i.checked)).toEqual([true, true, false]);
    expect([...pending].sort()).toEqual(['a', 'b']);
    expect(list.items[0]?.checked).toBe(false);
    expect(overlay(list, []).list).toBe(list);
  });

  it('reads only well-formed ticks from storage', () => {
    expect(parseQueue(null)).toEqual([]);
    expect(parseQueue('nope')).toEqual([]);
    expect(parseQueue(JSON.stringify([tick('a', true, 't'), { itemId: 1 }]))).toEqual([
      tick('a', true, 't'),
    ]);
  });

  it('survives a reload, per user', () => {
    const q = new TickQueue('u1');
    let heard = 0;
    q.subscribe(() => (heard += 1));
    q.add(tick('a', true, 't1'));
    q.add(tick('b', false, 't2'));
    expect(heard).toBe(2);
    expect(new TickQueue('u1').snapshot).toHaveLength(2);
    expect(new TickQueue('u2').snapshot).toHaveLength(0);
    q.remove(tick('a', true, 't1'));
    q.remove(tick('b', false, 't2'));
    expect(localStorage.length).toBe(0);
  });
});
