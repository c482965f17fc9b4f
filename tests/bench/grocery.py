#!/usr/bin/env python3
"""Grocery list benchmarks (issue 13).

1. Ticks on one 200-item list (`PATCH /api/grocery-lists/{id}/items/{itemId}`), one family
   session, 8 clients at once, each on its own keep-alive connection, all on the same list:
   a. 8 Python processes x 2,000 ticks of random items, each tick flipping the item from what
      that client last sent, with `at` = the client's clock 1 ms ago (nanoseconds, its last
      digit the client's number, so no two ticks share a time). Requests/s, p50/p90/p99/max.
      Then the check for lost updates: the list as stored must show, for every item, the tick
      with the latest `at` that any client sent for it (checked and checkedAt), and its
      version must have moved at least once per applied tick (a tick lost to a concurrent
      write would leave it short) and at most once per tick answered (a tick found late
      before its transaction writes nothing; one found late inside it still writes);
      every answer must already show its own tick when applied. CPU seconds of server, clients and the rest of the machine are printed,
      to show whether the Python clients are the bottleneck.
   b. wrk, 2 threads x 8 connections, 15 s, a Lua script cycling through the item ids (each
      thread from its own offset, alternating true/false per pass; no `at`, so the server's
      clock). Checked afterwards: no non-2xx answer, 200 items, and the version moved by at
      least the number of answers wrk counted (at most 8 more: requests in flight at the end).
   Bytes written to disk per tick (`/proc/<pid>/io` write_bytes) for both.
2. `GET /api/grocery-lists` of one family with 20 lists x 50 items, wrk 2 threads x 8
   connections x 10 s with the session cookie: requests/s, p50/p99, response size (and gzip
   size), RSS before and after; the same with `If-None-Match` if the answer carries an ETag.
3. Idle RSS after start, and RSS after the loads (each part has its own fresh server).

The load average and the CPU time of other processes are printed with each part: the machine
has 2 cores shared by server, clients and anything else running.

Stdlib only, plus wrk (apt-get install -y wrk). Every socket goes to 127.0.0.1. Run from the
repository root after `cargo build --release` (or name another binary with HIGHCHAIR_BIN).
Takes about a minute.
"""
import calendar
import gzip
import http.client
import json
import multiprocessing
import os
import platform
import random
import re
import resource
import shutil
import sys
import tempfile
import time

import common
from common import Server, percentile, rss_kib, wrk, wrk_figures

# The binary to measure (default target/release/highchair), as in store.py.
common.BIN = os.environ.pop("HIGHCHAIR_BIN", common.BIN)

PASSWORD = "correct horse battery"
CLIENTS = 8
TICKS_EACH = 2000
TICK_ITEMS = 200
WRK_TICK_SECONDS = 15
LISTS, ITEMS_PER_LIST = 20, 50

# Catalogue foods (priced by the server) with a quantity in their unit, and things it does not
# know (the per-item estimate), so the estimate does both kinds of work.
KNOWN = [
    ("Chicken breast", "500 g", "Meat & Seafood"), ("Beef mince", "750 g", "Meat & Seafood"),
    ("Salmon fillet", "240 g", "Meat & Seafood"), ("Eggs", "12", "Dairy"),
    ("Whole milk", "2000 ml", "Dairy"), ("Cheddar cheese", "400 g", "Dairy"),
    ("Greek yoghurt", "500 g", "Dairy"), ("Butter", "250 g", "Dairy"),
    ("Broccoli", "350 g", "Produce"), ("Spinach", "200 g", "Produce"), ("Carrot", "1000 g", "Produce"),
    ("Sweet potato", "600 g", "Produce"), ("Red pepper", "3", "Produce"), ("Banana", "6", "Produce"),
    ("Penne", "500 g", "Dry Goods & Pasta"), ("White rice", "1000 g", "Dry Goods & Pasta"),
    ("Red lentils", "500 g", "Dry Goods & Pasta"), ("Chickpeas", "400 g", "Canned Goods"),
    ("Chopped tomatoes", "400 g", "Canned Goods"), ("Fish fingers", "300 g", "Frozen"),
]
UNKNOWN = [
    ("Nappies size 4", "1 pack", "Baby"), ("Baby wipes", "3 packs", "Baby"), ("Dog food", "2 kg", "Pet"),
    ("Washing-up liquid", "1 bottle", "Cleaning"), ("Bin bags", "1 roll", "Cleaning"),
    ("Toothpaste", "2", "Personal Care"), ("Shampoo", "1", "Personal Care"), ("Crisps", "6 bags", "Snacks"),
    ("Orange juice", "1 carton", "Beverages"), ("Sparkling water", "6 bottles", "Beverages"),
    ("Sourdough loaf", "1", "Bakery"), ("Ketchup", "1 bottle", "Condiments & Spices"),
    ("Oregano", "1 jar", "Condiments & Spices"), ("Birthday candles", "1 box", "Other"),
]


def items(n, seed):
    rnd = random.Random(seed)
    pool = KNOWN + UNKNOWN
    out = []
    for i in range(n):
        name, quantity, category = pool[i % len(pool)]
        out.append({"name": name if i < len(pool) else f"{name} {i // len(pool) + 1}",
                    "quantity": quantity, "category": category, "checked": rnd.random() < 0.2})
    return out


def signup(server, n):
    status, body, cookie = server.request("POST", "/api/auth/signup", {
        "firstName": "Bench", "lastName": f"Parent{n}", "email": f"bench{n}@example.org",
        "password": PASSWORD, "role": "mom", "acceptTerms": True})
    assert status == 201, (status, body[:200])
    return cookie.split(";")[0]


def create_list(server, cookie, name, n, seed, conn=None):
    status, body, _ = server.request("POST", "/api/grocery-lists", {"name": name, "items": items(n, seed)},
                                     {"cookie": cookie}, conn)
    assert status == 201, (status, body[:300])
    return json.loads(body)


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


class Cpu:
    """CPU seconds over a phase: the whole machine (/proc/stat, busy time), the server, and
    this script's waited-for children (client processes, wrk)."""

    def __init__(self, pid):
        self.pid = pid
        self.start = self._now()

    def _now(self):
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        busy = sum(fields) - fields[3] - fields[4]  # all but idle and iowait
        with open(f"/proc/{self.pid}/stat") as f:
            stat = f.read().rsplit(")", 1)[1].split()
        server = int(stat[11]) + int(stat[12])
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        mine = resource.getrusage(resource.RUSAGE_SELF)
        hz = os.sysconf("SC_CLK_TCK")
        return busy / hz, server / hz, kids.ru_utime + kids.ru_stime + mine.ru_utime + mine.ru_stime

    def report(self, wall):
        busy, server, clients = (b - a for a, b in zip(self.start, self._now()))
        other = max(0.0, busy - server - clients)
        return (f"CPU over {wall:.1f} s: server {server:.1f} s, clients {clients:.1f} s, other processes "
                f"{other:.1f} s (machine {busy / wall / os.cpu_count() * 100:.0f}% busy of {os.cpu_count()} cores)")


def write_bytes(pid):
    with open(f"/proc/{pid}/io") as f:
        for line in f:
            if line.startswith("write_bytes:"):
                return int(line.split()[1])
    return 0


def iso(ns):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ns // 10**9)) + f".{ns % 10**9:09d}Z"


def parse_ns(text):
    """The server's RFC 3339 timestamp (UTC, nanoseconds) back to integer nanoseconds."""
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(?:Z|\+00:00)", text)
    secs = calendar.timegm(time.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S"))
    return secs * 10**9 + int((m.group(2) or "0").ljust(9, "0")[:9])


def tick_client(args):
    """One client: TICKS_EACH ticks on its own connection, starting at `start` (monotonic)."""
    index, port, cookie, list_id, item_ids, start, seed = args
    rnd = random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.connect()
    state = {i: False for i in item_ids}
    latencies, ticks, bad = [], [], []
    last = 0
    time.sleep(max(0.0, start - time.monotonic()))
    t_begin = time.monotonic()
    for _ in range(TICKS_EACH):
        item = rnd.choice(item_ids)
        checked = not state[item]
        state[item] = checked
        at = (time.time_ns() - 1_000_000) // 10 * 10 + index
        if at <= last:
            at = last + 10
        last = at
        body = json.dumps({"checked": checked, "at": iso(at)}).encode()
        t0 = time.perf_counter()
        conn.request("PATCH", f"/api/grocery-lists/{list_id}/items/{item}", body=body,
                     headers={"content-type": "application/json", "cookie": cookie})
        resp = conn.getresponse()
        data = resp.read()
        latencies.append(time.perf_counter() - t0)
        if resp.status != 200:
            bad.append(f"{resp.status} {data[:200]!r}")
            continue
        applied = b'"applied":true' in data[:40]
        ticks.append((item, checked, at, applied))
        if applied:
            # The answer shows the item as this tick left it (or as a later tick did).
            pos = data.find(f'"id":"{item}"'.encode())
            m = re.compile(rb'"checked":(true|false),"checkedAt":"([^"]+)"').search(data, pos)
            shown_at = parse_ns(m.group(2).decode())
            if shown_at < at or (shown_at == at and (m.group(1) == b"true") != checked):
                bad.append(f"answer to an applied tick does not show it: {item}")
    t_end = time.monotonic()
    conn.close()
    return latencies, ticks, bad, t_begin, t_end


def python_ticks(server, cookie, lst):
    item_ids = [i["id"] for i in lst["items"]]
    pid = server.proc.pid
    cpu, wb = Cpu(pid), write_bytes(pid)
    start = time.monotonic() + 1.0
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(CLIENTS) as pool:
        results = pool.map(tick_client, [(i, server.port, cookie, lst["id"], item_ids, start, 1000 + i)
                                         for i in range(CLIENTS)])
        pool.close()
        pool.join()
    wall = max(r[4] for r in results) - min(r[3] for r in results)
    cpu_line = cpu.report(wall)
    written = write_bytes(pid) - wb
    latencies = [x for r in results for x in r[0]]
    ticks = [t for r in results for t in r[1]]
    bad = [b for r in results for b in r[2]]

    status, body, _ = server.request("GET", f"/api/grocery-lists/{lst['id']}", headers={"cookie": cookie})
    assert status == 200, status
    stored = json.loads(body)
    latest = {}
    for item, checked, at, applied in ticks:
        if item not in latest or at > latest[item][1]:
            latest[item] = (checked, at)
    wrong = [i for i in stored["items"]
             if i["id"] in latest and (i["checked"] != latest[i["id"]][0]
                                       or parse_ns(i["checkedAt"]) != latest[i["id"]][1])]
    applied = sum(1 for t in ticks if t[3])
    # Every applied tick is one read-modify-write of the list, so the version moves at least
    # once per applied tick (a tick lost to a concurrent write would leave it short); a late
    # tick seen before its transaction writes nothing, one seen inside it still writes.
    moved = stored["version"] - lst["version"]
    version_ok = applied_count(ticks) <= moved <= len(ticks)
    ok = not bad and not wrong and version_ok and len(stored["items"]) == TICK_ITEMS
    ms = [x * 1000 for x in latencies]
    check = (f"{'PASS' if ok else 'FAIL'}: {len(latest)} items ticked; {len(wrong)} differ from their latest tick; "
             f"version {lst['version']} -> {stored['version']} for {len(ticks):,} ticks answered "
             f"({applied:,} applied, {len(ticks) - applied:,} applied=false: a later tick of the item was "
             f"already there); {len(bad)} bad answers")
    return {
        "count": len(latencies), "rps": len(latencies) / wall, "wall": wall,
        "p50": percentile(ms, 0.5), "p90": percentile(ms, 0.9), "p99": percentile(ms, 0.99), "max": max(ms),
        "check": check, "ok": ok, "bad": bad[:5], "cpu": cpu_line, "bytes_per_tick": written / len(latencies),
    }


WRK_TICK_LUA = """
local ids = {%(ids)s}
local list = "%(list)s"
local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end
function init(args)
  n = tid * 97
  wrk.method = "PATCH"
  wrk.headers["Content-Type"] = "application/json"
end
function request()
  n = n + 1
  local i = (n %% #ids) + 1
  local checked = (math.floor(n / #ids) %% 2 == 0) and "true" or "false"
  return wrk.format(nil, "/api/grocery-lists/" .. list .. "/items/" .. ids[i], nil,
                    '{"checked":' .. checked .. '}')
end
"""




def applied_count(ticks):
    return sum(1 for t in ticks if t[3])


def wrk_ticks(server, cookie, lst, tmp):
    script = f"{tmp}/tick.lua"
    with open(script, "w") as f:
        f.write(WRK_TICK_LUA % {"ids": ", ".join(f'"{i["id"]}"' for i in lst["items"]), "list": lst["id"]})
    status, body, _ = server.request("GET", f"/api/grocery-lists/{lst['id']}", headers={"cookie": cookie})
    before = json.loads(body)["version"]
    pid = server.proc.pid
    cpu, wb = Cpu(pid), write_bytes(pid)
    t0 = time.monotonic()
    out = wrk(["-t2", "-c8", f"-d{WRK_TICK_SECONDS}s", "--latency", "-s", script, "-H", f"Cookie: {cookie}",
               f"http://127.0.0.1:{server.port}/"])
    cpu_line = cpu.report(time.monotonic() - t0)
    written = write_bytes(pid) - wb
    f = wrk_figures(out)
    status, body, _ = server.request("GET", f"/api/grocery-lists/{lst['id']}", headers={"cookie": cookie})
    after = json.loads(body)
    moved = after["version"] - before
    ok = (f["non2xx"] == 0 and not f["errors"] and len(after["items"]) == TICK_ITEMS
          and f["requests"] <= moved <= f["requests"] + CLIENTS)
    f["check"] = (f"{'PASS' if ok else 'FAIL'}: {f['non2xx']} non-2xx answers{', ' + f['errors'] if f['errors'] else ''}; "
                  f"version moved by {moved:,} for {f['requests']:,} answers counted by wrk "
                  f"(up to {CLIENTS} more were in flight when it stopped); {len(after['items'])} items")
    f["ok"] = ok
    f["cpu"] = cpu_line
    f["bytes_per_tick"] = written / max(1, moved)
    return f


def main():
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install -y wrk")
    tmp = tempfile.mkdtemp(prefix="hc-bench-grocery-")
    rows, notes = [], []
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; "
          f"date {time.strftime('%Y-%m-%d')}; binary {common.BIN}; load average at start {loadavg()}\n", flush=True)

    # Part 1: ticks.
    server = Server()
    try:
        time.sleep(1)
        idle = rss_kib(server.proc.pid)
        cookie = signup(server, 1)
        lst = create_list(server, cookie, "Big weekly shop", TICK_ITEMS, 1)
        seeded = rss_kib(server.proc.pid)
        rows.append(("Idle RSS after start / after sign-up and a 200-item list", f"{mib(idle)} / {mib(seeded)}", "report"))

        notes.append(f"load average before the Python ticks: {loadavg()}")
        py = python_ticks(server, cookie, lst)
        rows.append((f"Ticks on one 200-item list: {CLIENTS} Python processes x {TICKS_EACH:,} random items, "
                     "own keep-alive connection each, one family session",
                     f"{py['rps']:,.0f} ticks/s ({py['count']:,} in {py['wall']:.1f} s); p50 {py['p50']:.2f} ms, "
                     f"p90 {py['p90']:.2f} ms, p99 {py['p99']:.2f} ms, max {py['max']:.1f} ms", "p99 < 20 ms"))
        rows.append(("  no lost update (stored list = latest tick of each item; version +1 per applied tick)",
                     py["check"], "PASS"))
        notes.append(f"Python ticks: {py['cpu']}")
        if py["bad"]:
            notes.append(f"Python ticks, first bad answers: {py['bad']}")

        notes.append(f"load average before the wrk ticks: {loadavg()}")
        wt = wrk_ticks(server, cookie, lst, tmp)
        rows.append((f"The same list under wrk: 2 threads x {CLIENTS} connections, {WRK_TICK_SECONDS} s, "
                     "Lua script cycling through the 200 item ids",
                     f"{wt['rps']:,.0f} ticks/s ({wt['requests']:,}); p50 {wt['p50']:.2f} ms, p90 {wt['p90']:.2f} ms, "
                     f"p99 {wt['p99']:.2f} ms, max {wt['max']:.1f} ms", "p99 < 20 ms"))
        rows.append(("  check after wrk", wt["check"], "PASS"))
        notes.append(f"wrk ticks: {wt['cpu']}")
        rows.append(("Bytes written to disk per tick (/proc/<pid>/io write_bytes), Python / wrk",
                     f"{py['bytes_per_tick'] / 1024:,.1f} KiB / {wt['bytes_per_tick'] / 1024:,.1f} KiB", "report"))
        status, body, _ = server.request("PATCH", f"/api/grocery-lists/{lst['id']}/items/{lst['items'][0]['id']}",
                                         {"checked": True}, {"cookie": cookie})
        rows.append(("Size of one tick's answer (the whole 200-item list)", f"{len(body):,} bytes", "report"))
        rows.append(("RSS after the tick loads", mib(rss_kib(server.proc.pid)), "report"))
    finally:
        server.stop()
        shutil.rmtree(server.dir, ignore_errors=True)

    # Part 2: the family's lists.
    server = Server()
    try:
        time.sleep(1)
        idle = rss_kib(server.proc.pid)
        cookie = signup(server, 2)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        for n in range(LISTS):
            create_list(server, cookie, f"List {n + 1}", ITEMS_PER_LIST, 100 + n, conn)
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("GET", "/api/grocery-lists", headers={"cookie": cookie})
        resp = conn.getresponse()
        body = resp.read()
        etag = resp.getheader("etag")
        conn.request("GET", "/api/grocery-lists", headers={"cookie": cookie, "accept-encoding": "gzip, br"})
        resp2 = conn.getresponse()
        encoded = len(resp2.read())
        encoding = resp2.getheader("content-encoding")
        conn.close()
        assert resp.status == 200 and len(json.loads(body)) == LISTS, resp.status
        before = rss_kib(server.proc.pid)
        rows.append(("Idle RSS after start (second server) / after sign-up and 20 lists x 50 items",
                     f"{mib(idle)} / {mib(before)}", "report"))
        rows.append(("GET /api/grocery-lists answer, 20 lists x 50 items",
                     f"{len(body):,} bytes" + (f"; {encoding} when asked: {encoded:,} bytes" if encoding
                                              else "; not compressed when the client accepts gzip/br "
                                              f"(gzip -6 would make it {len(gzip.compress(body, 6)):,})"),
                     "report"))
        url = f"http://127.0.0.1:{server.port}/api/grocery-lists"
        wrk(["-t2", "-c8", "-d2s", "-H", f"Cookie: {cookie}", url])  # warm up
        notes.append(f"load average before the GET load: {loadavg()}")
        cpu, t0 = Cpu(server.proc.pid), time.monotonic()
        g = wrk_figures(wrk(["-t2", "-c8", "-d10s", "--latency", "-H", f"Cookie: {cookie}", url]))
        notes.append(f"GET load: {cpu.report(time.monotonic() - t0)}")
        rows.append(("GET /api/grocery-lists (20 lists x 50 items), wrk 2 threads x 8 connections, 10 s"
                     + (" (ETag sent; wrk sends no If-None-Match, so every request gets the whole answer)"
                        if etag else ""),
                     f"{g['rps']:,.0f} req/s; p50 {g['p50']:.2f} ms, p99 {g['p99']:.2f} ms"
                     + (f"; {g['non2xx']} non-2xx" if g["non2xx"] else ""),
                     ">= 3,000 req/s (KitchenOwl: 101-114)"))
        if etag:
            status, _, _ = server.request("GET", "/api/grocery-lists",
                                          headers={"cookie": cookie, "if-none-match": etag})
            assert status == 304, f"If-None-Match with the current ETag answered {status}"
            g304 = wrk_figures(wrk(["-t2", "-c8", "-d10s", "--latency", "-H", f"Cookie: {cookie}",
                                    "-H", f"If-None-Match: {etag}", url]))
            rows.append(("  the same with If-None-Match (304)",
                         f"{g304['rps']:,.0f} req/s; p50 {g304['p50']:.2f} ms, p99 {g304['p99']:.2f} ms", "report"))
        else:
            rows.append(("  the same with If-None-Match", "not measured: the answer has no ETag "
                         f"(Cache-Control: {resp.getheader('cache-control')})", ""))
        rows.append(("RSS before / after the GET load", f"{mib(before)} / {mib(rss_kib(server.proc.pid))}", "report"))
    finally:
        server.stop()
        shutil.rmtree(server.dir, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)

    print("| measure | result | target |\n|---|---|---|")
    for name, value, target in rows:
        print(f"| {name} | {value} | {target} |")
    print()
    for n in notes + [f"load average at the end: {loadavg()}"]:
        print(f"- {n}")
    if not (py["ok"] and wt["ok"]):
        sys.exit("lost-update check FAILED")


if __name__ == "__main__":
    main()
