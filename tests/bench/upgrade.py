#!/usr/bin/env python3
"""The upgrade in place from the sled release (issue 28): a data directory the sled release
filled with --years (5) of a family's meals, opened by this build's `highchair serve`. Reports
the import's own time (from the log), the start until /api/health answers, the server's peak RSS
while it imports, its RSS once it serves, and the store's size before (db/) and after
(highchair.db), photos left out; then `highchair db check` on the result.

    # the sled release's fill_store: build commit 14f8045 in a worktree with its own target
    git worktree add /tmp/sled-release 14f8045
    (cd /tmp/sled-release && SKIP_UI_BUILD=1 CARGO_TARGET_DIR=/tmp/sled-target \\
        cargo build --release --example fill_store)
    HIGHCHAIR_SLED_FILL=/tmp/sled-target/release/examples/fill_store python3 tests/bench/upgrade.py

The fill writes photo files too (about 3 GiB for 5 years); the import does not copy them."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import BIN, Sampler, free_port, rss_kib, store_bytes, wait_up  # noqa: E402

SLED_FILL = os.environ.pop("HIGHCHAIR_SLED_FILL", None)


def mib(kib):
    return f"{kib / 1024:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--years", type=int, default=5)
    args = ap.parse_args()
    if not SLED_FILL:
        raise SystemExit("set HIGHCHAIR_SLED_FILL to the sled release's fill_store (see --help)")
    root = tempfile.mkdtemp(prefix="hc-upgrade-")
    data = os.path.join(root, "data")
    try:
        started = time.monotonic()
        out = subprocess.run([SLED_FILL, data, "--years", str(args.years)],
                             capture_output=True, text=True, check=True)
        fill_s = time.monotonic() - started
        print(out.stdout.strip().splitlines()[-1], f"({fill_s:.0f} s)")
        if not os.path.isdir(os.path.join(data, "db")):
            raise SystemExit("HIGHCHAIR_SLED_FILL did not write a sled store (no db/)")
        sled_bytes = store_bytes(data)

        port = free_port()
        log = open(os.path.join(root, "serve.log"), "w+")
        proc = subprocess.Popen(
            [BIN, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", data],
            env=dict(os.environ, HIGHCHAIR_LOG_LEVEL="info"),
            stdout=log, stderr=subprocess.STDOUT)
        sampler = Sampler(proc.pid)
        up = wait_up(port, proc, timeout=600)
        peak = sampler.stop()
        time.sleep(2)
        serving = rss_kib(proc.pid)
        proc.terminate()
        proc.wait()
        log.seek(0)
        text = log.read()
        imported = re.search(r"the sled store was imported.*?seconds=([0-9.]+)", text)
        if not imported:
            raise SystemExit("no import in the log:\n" + text[-2000:])
        sqlite_bytes = store_bytes(data)
        check = subprocess.run([BIN, "db", "check", "--data-dir", data],
                               capture_output=True, text=True)
        rows = dict(re.findall(r"^\s+(\w+)\s+(\d+)$", check.stdout, re.M))

        print()
        print("| | |")
        print("|---|---|")
        print(f"| store filled by the sled release | {args.years} years: {rows.get('meals')} meals, "
              f"{rows.get('media')} photos, {rows.get('recipes')} recipes, "
              f"{rows.get('grocery_items')} grocery items |")
        print(f"| the import (log: `seconds`) | {float(imported.group(1)):.2f} s |")
        print(f"| start until /api/health answers, import included | {up:.2f} s |")
        print(f"| peak RSS while importing / serving 2 s later | {mib(peak)} / {mib(serving)} MiB |")
        print(f"| store before (sled `db/`) / after (`highchair.db`), photos left out | "
              f"{sled_bytes / 1048576:.1f} / {sqlite_bytes / 1048576:.1f} MiB |")
        verdict = "clean" if check.returncode == 0 else f"exit {check.returncode}"
        print(f"| `highchair db check` afterwards | {verdict} |")
        if check.returncode != 0:
            print(check.stdout, check.stderr)
            sys.exit(1)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
