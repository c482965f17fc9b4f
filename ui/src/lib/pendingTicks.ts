/**
 * Ticks waiting for the server: made offline (in a shop with no signal), or on their way. Kept
 * in localStorage per user, in the order they were made, so a reload or a closed tab loses
 * none; the screens show lists with these ticks laid over what the server last said.
 */

export interface PendingTick {
  listId: string;
  itemId: string;
  checked: boolean;
  /** When the parent ticked, ISO 8601: the server keeps the later of two ticks of an item. */
  at: string;
}

/** The queue with `tick` added last; an older tick of the same item is replaced (last wins). */
export function enqueue(queue: readonly PendingTick[], tick: PendingTick): PendingTick[] {
  return [...queue.filter((t) => !sameItem(t, tick)), tick];
}

export function sameItem(a: PendingTick, b: { listId: string; itemId: string }): boolean {
  return a.listId === b.listId && a.itemId === b.itemId;
}

/** The queue without exactly this tick (a newer tick of the item stays). */
export function dequeue(queue: readonly PendingTick[], tick: PendingTick): PendingTick[] {
  return queue.filter(
    (t) => !(sameItem(t, tick) && t.at === tick.at && t.checked === tick.checked),
  );
}

/** A list with the queued ticks laid over it; `pending` holds the ids of those items. */
export function overlay<
  I extends { id: string; checked: boolean },
  L extends { id: string; items: I[] },
>(list: L, queue: readonly PendingTick[]): { list: L; pending: Set<string> } {
  const mine = queue.filter((t) => t.listId === list.id);
  if (mine.length === 0) return { list, pending: new Set() };
  const ticks = new Map(mine.map((t) => [t.itemId, t.checked]));
  const pending = new Set<string>();
  const items = list.items.map((item) => {
    const checked = ticks.get(item.id);
    if (checked === undefined) return item;
    pending.add(item.id);
    return checked === item.checked ? item : { ...item, checked };
  });
  return { list: { ...list, items }, pending };
}

function isTick(value: unknown): value is PendingTick {
  if (typeof value !== 'object' || value === null) return false;
  const t = value as Record<string, unknown>;
  return (
    typeof t.listId === 'string' &&
    typeof t.itemId === 'string' &&
    typeof t.checked === 'boolean' &&
    typeof t.at === 'string'
  );
}

/** Reads a stored queue, dropping anything that is not a tick. */
export function parseQueue(text: string | null): PendingTick[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter(isTick) : [];
  } catch {
    return [];
  }
}

const PREFIX = 'highchair.pendingTicks.';

/** The queue of one user in localStorage, with listeners for the screens. */
export class TickQueue {
  private ticks: PendingTick[];
  private readonly listeners = new Set<() => void>();

  constructor(private readonly user: string) {
    this.ticks = parseQueue(read(PREFIX + user));
  }

  get snapshot(): readonly PendingTick[] {
    return this.ticks;
  }

  /** Listens for changes, also those another tab or the installed app makes. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    const onStorage = (e: StorageEvent) => {
      if (e.key !== PREFIX + this.user) return;
      this.ticks = parseQueue(e.newValue);
      listener();
    };
    globalThis.addEventListener?.('storage', onStorage);
    return () => {
      this.listeners.delete(listener);
      globalThis.removeEventListener?.('storage', onStorage);
    };
  };

  // Each change starts from what is stored now: another tab may have queued or sent ticks.
  add(tick: PendingTick) {
    this.set(enqueue(this.stored(), tick));
  }

  remove(tick: PendingTick) {
    this.set(dequeue(this.stored(), tick));
  }

  private stored(): PendingTick[] {
    const text = read(PREFIX + this.user);
    return text === null && this.ticks.length > 0 && !storageWorks()
      ? this.ticks
      : parseQueue(text);
  }

  private set(ticks: PendingTick[]) {
    this.ticks = ticks;
    write(PREFIX + this.user, ticks.length > 0 ? JSON.stringify(ticks) : null);
    for (const listener of this.listeners) listener();
  }
}

/** Whether localStorage can be used at all (not in some private modes). */
function storageWorks(): boolean {
  try {
    const probe = 'highchair.probe';
    localStorage.setItem(probe, '1');
    localStorage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private mode or full storage: the ticks still wait in memory while the tab is open.
  }
}
