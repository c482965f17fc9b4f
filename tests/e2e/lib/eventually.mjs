/** Retries `check` until it passes or `ms` is over (then its last failure is thrown). */
export async function expectEventually(check, ms = 5_000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
