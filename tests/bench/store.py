#!/usr/bin/env python3
"""The store's write path (issue 9): meal-create latency with one writer and with 8 concurrent
writers, bytes written to disk per meal, RSS, and GET /api/meals under wrk.

Run from the repository root after `cargo build --release`; needs wrk (apt-get install -y wrk).
Targets 127.0.0.1 only. The binary is taken from HIGHCHAIR_BIN (default
target/release/highchair), so an older build can be measured the same way:

    HIGHCHAIR_BIN=/path/to/old/highchair python3 tests/bench/store.py

The server trusts 127.0.0.1 as a proxy so each family signs up from its own X-Forwarded-For
address (the per-IP sign-up limit is not what is measured). Data directories are fresh and on
disk (under $TMPDIR). One server runs phases 1-3:

  1. one writer: 500 meals one after another on one keep-alive connection (after 20 warm-up);
  2. bytes per meal: 1,000 meals one after another for a second family, reading the server's
     /proc/<pid>/io and the data directory's size (du -sb) before and after;
  3. GET /api/meals of that family (first page: 50 of its 1,000 meals), wrk -t2 -c8 -d10s;

then each concurrent phase gets a server of its own (a hung request cannot spoil the others):

  4. 8 writers, 8 families: 8 threads, each with its own family, child and keep-alive
     connection, 300 meals each, started together;
  5. 8 writers, 1 family: the same, every thread writing for one family and child.

A request without a reply within 15 s is reported as hung (builds before the group commit
could lock up with concurrent flushes: sled 0.34's flush_async, spacejam/sled#1241).
"""
import http.client
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import threading
import time

import common
from common import Server, percentile, rss_kib

# Taken out of the environment: the server refuses HIGHCHAIR_* variables that are not settings.
common.BIN = os.environ.pop("HIGHCHAIR_BIN", common.BIN)
PASSWORD = "correct horse battery"
SEQUENTIAL = 500
BYTES_MEALS = 1000
WRITERS = 8
PER_WRITER = 300
HANG_S = 15


def proc_io(pid):
    out = {}
    with open(f"/proc/{pid}/io") as f:
        for line in f:
            key, value = line.split(":")
            out[key] = int(value)
    return out


def du_bytes(path):
    return int(subprocess.run(["du", "-sb", path], capture_output=True, text=True, check=True).stdout.split()[0])


class Family:
    """A signed-up parent with one child and a keep-alive connection."""

    def __init__(self, server, n):
        self.server = server
        status, _, cookie = server.request("POST", "/api/auth/signup", {
            "firstName": "Bench", "lastName": f"Parent{n}", "email": f"bench{n}@example.org",
            "password": PASSWORD, "role": "mom", "acceptTerms": True},
            {"x-forwarded-for": f"10.7.0.{n + 1}"})
        assert status == 201, status
        self.cookie = cookie.split(";")[0]
        status, body, _ = server.request("POST", "/api/children", {"name": "Emma"}, {"cookie": self.cookie})
        assert status == 201, status
        self.child = json.loads(body)["id"]

    def connect(self):
        return http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)

    def create_meal(self, conn, i):
        """Returns (elapsed seconds, response body)."""
        t0 = time.perf_counter()
        status, body, _ = self.server.request(
            "POST", "/api/meals", {"childId": self.child, "mealType": "Lunch", "foods": ["Pasta"]},
            {"cookie": self.cookie}, conn)
        elapsed = time.perf_counter() - t0
        assert status == 201, (status, body[:200], i)
        return elapsed, body


def latency_row(label, latencies, wall):
    ms = [t * 1000 for t in latencies]
    return (label, f"{len(ms) / wall:,.0f} creates/s; p50 {percentile(ms, 0.5):.2f} ms, "
                   f"p99 {percentile(ms, 0.99):.2f} ms")


def concurrent(families, per_writer):
    """One thread per entry of `families` (entries may repeat), started together. A request
    without a reply within HANG_S counts as hung and ends its writer (the others go on).
    Returns (latencies, wall seconds, hung writers, meals created)."""
    latencies = [[] for _ in families]
    hung = []
    errors = []
    barrier = threading.Barrier(len(families) + 1)

    def writer(k):
        fam = families[k]
        conn = http.client.HTTPConnection("127.0.0.1", fam.server.port, timeout=HANG_S)
        try:
            barrier.wait()
            for i in range(per_writer):
                latencies[k].append(fam.create_meal(conn, i)[0])
        except TimeoutError:
            hung.append(k)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)
        finally:
            conn.close()

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(len(families))]
    for t in threads:
        t.start()
    barrier.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    if errors:
        raise errors[0]
    done = [x for per in latencies for x in per]
    return done, wall, len(hung), len(done)


def concurrent_phase(label, one_family, io_label=None):
    """8 writers on a server of their own, so that a hang cannot spoil another phase."""
    server = start()
    rows = []
    try:
        if one_family:
            fam = Family(server, 0)
            families = [fam] * WRITERS
        else:
            families = [Family(server, k) for k in range(WRITERS)]
        time.sleep(2)
        pid, data = server.proc.pid, f"{server.dir}/data"
        du0, io0 = du_bytes(data), proc_io(pid)
        latencies, wall, hung, done = concurrent(families, PER_WRITER)
        if hung:
            rows.append((label, f"HUNG: {hung} of {WRITERS} writers got no reply within {HANG_S} s "
                                f"({done} of {WRITERS * PER_WRITER} meals created before)"))
            return rows
        rows.append(latency_row(label, latencies, wall))
        if io_label:
            time.sleep(2)
            du1, io1 = du_bytes(data), proc_io(pid)
            rows += io_rows(io_label, io0, io1, du0, du1, done)
        return rows
    finally:
        stop(server)


def start():
    return Server({"HIGHCHAIR_SERVER_TRUSTED_PROXIES": "127.0.0.1"})


def stop(server):
    """SIGTERM, then SIGKILL if a hung request keeps the graceful shutdown waiting."""
    server.proc.terminate()
    try:
        server.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        server.proc.wait()
    shutil.rmtree(server.dir, ignore_errors=True)


def io_rows(label, before, after, du_before, du_after, meals):
    return [
        (f"{label}: bytes written to disk per meal (/proc/pid/io write_bytes)",
         f"{(after['write_bytes'] - before['write_bytes']) / meals:,.0f} B"),
        (f"{label}: bytes passed to write calls per meal (wchar; includes the ~1 KB HTTP response)",
         f"{(after['wchar'] - before['wchar']) / meals:,.0f} B"),
        (f"{label}: write calls per meal (syscw; includes 1 send of the response)",
         f"{(after['syscw'] - before['syscw']) / meals:.2f}"),
        (f"{label}: data directory growth per meal (du -sb)",
         f"{(du_after - du_before) / meals:,.0f} B"),
    ]


def main():
    rows = []
    server = start()
    pid = server.proc.pid
    data = f"{server.dir}/data"
    try:
        time.sleep(1)
        rows.append(("RSS idle after start", f"{rss_kib(pid) / 1024:.1f} MiB"))

        # 1. One writer.
        seq = Family(server, 0)
        conn = seq.connect()
        for i in range(20):  # warm-up, not counted
            seq.create_meal(conn, i)
        t0 = time.perf_counter()
        latencies = [seq.create_meal(conn, i)[0] for i in range(SEQUENTIAL)]
        rows.append(latency_row(f"1 writer: {SEQUENTIAL} POST /api/meals one after another",
                                latencies, time.perf_counter() - t0))
        conn.close()

        # 2. Bytes per meal. Let sled's background flush (every 500 ms) settle first, and check
        # what an idle server writes in the same time.
        bytes_family = Family(server, 1)
        time.sleep(2)
        idle0 = proc_io(pid)
        time.sleep(2)
        idle1 = proc_io(pid)
        conn = bytes_family.connect()
        du0, io0 = du_bytes(data), proc_io(pid)
        body = b""
        for i in range(BYTES_MEALS):
            _, body = bytes_family.create_meal(conn, i)
        conn.close()
        time.sleep(2)  # include the background flush that follows the last write
        du1, io1 = du_bytes(data), proc_io(pid)
        rows += io_rows(f"1 writer, {BYTES_MEALS:,} meals", io0, io1, du0, du1, BYTES_MEALS)
        rows.append(("  for comparison: the JSON of one meal (POST /api/meals response body)",
                     f"{len(body)} B"))
        rows.append(("  idle server, 2 s (what is not caused by the meals)",
                     f"{idle1['write_bytes'] - idle0['write_bytes']:,} B written"))

        # 3. GET /api/meals, first page of 1,000.
        out = subprocess.run(
            ["wrk", "-t2", "-c8", "-d10s", "--latency", "-H", f"Cookie: {bytes_family.cookie}",
             f"http://127.0.0.1:{server.port}/api/meals"],
            capture_output=True, text=True, check=True).stdout
        rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        p50 = re.search(r"50%\s+([\d.]+\w+)", out).group(1)
        p99 = re.search(r"99%\s+([\d.]+\w+)", out).group(1)
        non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
        assert non2xx is None, out
        rows.append(("GET /api/meals (first page: 50 of 1,000), wrk 2 threads x 8 connections, 10 s",
                     f"{rps:,.0f} req/s, p50 {p50}, p99 {p99}"))

        rows.append(("RSS after the load (1,520 meals written, 10 s of wrk)", f"{rss_kib(pid) / 1024:.1f} MiB"))
    finally:
        stop(server)

    rows += concurrent_phase(f"{WRITERS} writers, {WRITERS} families: {WRITERS} x {PER_WRITER} POST /api/meals",
                             one_family=False, io_label=f"{WRITERS} writers, {WRITERS} families")
    rows += concurrent_phase(f"{WRITERS} writers, 1 family: {WRITERS} x {PER_WRITER} POST /api/meals",
                             one_family=True)

    print(f"Binary: {common.BIN}")
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; "
          f"date {time.strftime('%Y-%m-%d')}\n")
    print("| measure | result |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
