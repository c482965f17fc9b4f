#!/usr/bin/env python3
"""Backup and restore of a family with 5 years of meals (3 children x 6 meals a day, 20% with a
photo): fill time, store size, online backup time while two parents keep writing (with their
write latency and the write gate from the server's log), archive size, server RSS during the
backup, verify time, restore time and the restoring process's peak RSS.

    cargo build --release --example fill_store && python3 tests/bench/backup.py [--years 5]

Another build with HIGHCHAIR_BIN and HIGHCHAIR_FILL (its own fill_store), see common.py.

Needs about 4x the photos' size free on the disk of $TMPDIR (about 13 GiB for 5 years)."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import BIN, FILL, du, free_port, rss_kib, store_bytes, wait_up  # noqa: E402

import http.client  # noqa: E402
import json  # noqa: E402



def mib(n):
    return f"{n / 1048576:,.0f} MiB"


def request(port, method, path, body=None, cookie=None, conn=None):
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"content-type": "application/json"}
    if cookie:
        headers["cookie"] = cookie
    conn.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    return resp.status, data, resp.getheader("set-cookie")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--years", type=int, default=5)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="hc-backup-bench-")
    data = os.path.join(work, "data")
    try:
        t = time.time()
        out = subprocess.run([FILL, data, "--years", str(args.years)],
                             check=True, capture_output=True, text=True).stdout
        fill_s = time.time() - t
        print(out.strip().splitlines()[-1])
        db_bytes = store_bytes(data)
        media_bytes = du(os.path.join(data, "media"))

        port = free_port()
        log = open(os.path.join(work, "server.log"), "w")
        env = dict(os.environ, HIGHCHAIR_LOG_LEVEL="info", HIGHCHAIR_BACKUP_INTERVAL_HOURS="0")
        server = subprocess.Popen([BIN, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", data],
                                  env=env, stdout=subprocess.DEVNULL, stderr=log)
        start_s = wait_up(port, server, timeout=60)
        time.sleep(2)
        idle_rss = rss_kib(server.pid)

        status, body, cookie = request(port, "POST", "/api/auth/login",
                                       {"email": "family@example.org", "password": "correct horse battery"})
        assert status == 200, body
        cookie = cookie.split(";")[0]
        status, body, _ = request(port, "GET", "/api/children", cookie=cookie)
        child = json.loads(body)[0]["id"]

        # Two parents keep logging meals while the backup runs.
        stop = threading.Event()
        latencies = []
        during = []

        def writer():
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            while not stop.is_set():
                t0 = time.time()
                s, b, _ = request(port, "POST", "/api/meals",
                                  {"childId": child, "mealType": "snack", "foods": ["Apple"]},
                                  cookie=cookie, conn=conn)
                assert s == 201, b
                latencies.append((t0, time.time() - t0))

        writers = [threading.Thread(target=writer) for _ in range(2)]
        for w in writers:
            w.start()
        time.sleep(1)

        peak = [idle_rss]
        sampling = threading.Event()

        def sample():
            while not sampling.is_set():
                peak[0] = max(peak[0], rss_kib(server.pid))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        sampler.start()
        archive = os.path.join(work, "backup.tar")
        t = time.time()
        subprocess.run([BIN, "backup", "--out", archive, "--data-dir", data], check=True,
                       capture_output=True, text=True)
        backup_end = time.time()
        backup_s = backup_end - t
        sampling.set()
        sampler.join()
        time.sleep(0.5)
        stop.set()
        for w in writers:
            w.join()
        during = [l for (t0, l) in latencies if t <= t0 <= backup_end]
        before = [l for (t0, l) in latencies if t0 < t]
        after_rss = rss_kib(server.pid)
        server.terminate()
        server.wait()
        log.close()
        gates = [float(m) for m in re.findall(r"gate_ms=([0-9.]+)", open(os.path.join(work, "server.log")).read())]
        archive_bytes = os.path.getsize(archive)

        t = time.time()
        subprocess.run([BIN, "backup", "verify", archive], check=True, capture_output=True)
        verify_s = time.time() - t

        restored = os.path.join(work, "restored")
        t = time.time()
        proc = subprocess.Popen([BIN, "restore", archive, "--data-dir", restored],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        assert status == 0, "restore failed"
        restore_s = time.time() - t
        restore_rss = usage.ru_maxrss
        restored_bytes = store_bytes(restored) + du(os.path.join(restored, "media"))

        def q(values, p):
            if not values:
                return float("nan")
            values = sorted(values)
            return values[min(len(values) - 1, int(p * len(values)))] * 1000

        print()
        print("| figure | value |")
        print("|---|---|")
        print(f"| family | {args.years} years, 3 children x 6 meals a day, 20% with a photo |")
        print(f"| fill (store API) | {fill_s:.0f} s |")
        print(f"| store on disk: database / photo files | {mib(db_bytes)} / {mib(media_bytes)} |")
        print(f"| server start on it | {start_s:.1f} s |")
        print(f"| server RSS idle / peak during backup / after | {idle_rss / 1024:.1f} / {peak[0] / 1024:.1f} / {after_rss / 1024:.1f} MiB |")
        print(f"| online backup (`backup --out`, 2 parents writing) | {backup_s:.1f} s |")
        print(f"| write gate (writes held) | {', '.join(f'{g:.0f} ms' for g in gates) or 'none logged'} |")
        print(f"| meal POST p50 / p99 / max before | {q(before, .5):.1f} / {q(before, .99):.1f} / {max(before) * 1000:.1f} ms |")
        print(f"| meal POST p50 / p99 / max during backup ({len(during)} writes) | {q(during, .5):.1f} / {q(during, .99):.1f} / {max(during) * 1000 if during else float('nan'):.1f} ms |")
        print(f"| archive | {mib(archive_bytes)} |")
        print(f"| verify | {verify_s:.1f} s |")
        print(f"| restore (into a new data directory) | {restore_s:.1f} s, peak RSS of the restoring process {restore_rss / 1024:.0f} MiB |")
        print(f"| restored store on disk (database and photo files) | {mib(restored_bytes)} |")
    finally:
        if "--keep" not in sys.argv:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
