#!/usr/bin/env python3
"""The figures a self-hoster compares (issue 16): one family of 5 years on the release binary,
driven by wrk from 127.0.0.1, on this machine and Pi-sized.

    cargo build --release && cargo build --release --examples
    cargo run --release --example make_photo -- target/photo-12mp.jpg 4000 3000
    python3 tests/bench/figures.py [--seconds 10] [--years 5] [--runs full,pi] [--pi-cpu 0.25]

For each run: fills a fresh data directory (tests/bench/fill_store.rs: 3 children, 5 years of
meals at 6 a day, 20% with photos, 100 recipes, 20 grocery lists of 50 items, 8 weeks of meal
plan, 9 other families), starts the server (the Pi-sized run inside a cgroup: `--pi-cpu` of one
core, 512 MiB of memory, no swap) and reports its start time, then for each endpoint wrk with 2
threads x 8 connections for --seconds after 2 s of warm-up: requests/s, p50, p99, errors, and
the server's peak RSS. Then 50 SSE listeners (13 sessions of the family, 4 streams each at
most) while one parent writes 50 meals a second (delivery: every listener gets every change,
latency from the write's answer), and while wrk writes meals as fast as it can; a 12 MP photo
upload and the offline recipe generator (5 recipes); RSS idle, under load and 10 s after.
Pi-sized also reports the cgroup's memory peak and its OOM kills (must be 0).

Prints markdown for docs/benchmarks.md. Every socket goes to 127.0.0.1 (listeners and extra
sign-ins come from 127.0.0.2 ... so the per-address limits see separate devices)."""
import argparse
import json
import os
import platform
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import BIN, FILL, PHOTO, Client, Sampler, du, free_port, login, multipart, rss_kib, store_bytes, wait_up, wrk, wrk_figures  # noqa: E402
from grocery import WRK_TICK_LUA  # noqa: E402

FAMILY = "family@example.org"
LISTENERS = 50
STREAMS_PER_SESSION = 4  # src/events.rs: a fifth stream of one session supersedes the oldest
PI_MEMORY = 512 * 1024 * 1024

# Measured on this kind of machine (2 cores), given by the issue.
ANCHORS = [
    ("Mealie v2.0.0 (SQLite, one worker)", "about 380 MiB", "58-75 req/s (recipe list)", "8-10 s"),
    ("KitchenOwl v0.7.9", "about 430 MiB", "101-114 req/s (shopping-list items)", ""),
    ("hello-world poem server (the ceiling)", "", "93-104k req/s", ""),
]
LIST_ANCHOR = 114  # the best anchor list figure; lists must reach 20x

WRK_POST_MEAL_LUA = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"childId":"%(child)s","mealType":"snack","foods":["Apple","Toast"]}'
"""


def mib(kib):
    return kib / 1024


class Cgroup:
    """A Pi-sized cgroup: `cpu` of one core (pinned to CPU 0), 512 MiB, no swap. cgroup v2 when
    the unified hierarchy is mounted with its controllers, else v1 (this machine: v1, and no
    systemd as PID 1, so `systemd-run --scope` cannot be used; these files are what it sets)."""

    def __init__(self, cpu):
        self.name = f"highchair-pi-{os.getpid()}"
        self.v2 = os.path.exists("/sys/fs/cgroup/cgroup.controllers")
        # A short period: the quota is spread in 1 ms slices, like a slower core, instead of
        # 25 ms of work and 75 ms of standing still in each default 100 ms period (which puts
        # 70 ms into any p99). The kernel's smallest quota is 1 ms.
        period = 4000
        quota = max(1000, int(cpu * period))
        if self.v2:
            self.dirs = [f"/sys/fs/cgroup/{self.name}"]
            os.mkdir(self.dirs[0])
            self._set(self.dirs[0], {"cpu.max": f"{quota} {period}", "cpuset.cpus": "0",
                                     "memory.max": str(PI_MEMORY), "memory.swap.max": "0"})
        else:
            base = "/sys/fs/cgroup"
            self.dirs = [f"{base}/{c}/{self.name}" for c in ("cpu", "cpuset", "memory")]
            for d in self.dirs:
                os.mkdir(d)
            with open(f"{base}/cpuset/cpuset.mems") as f:
                mems = f.read().strip()
            self._set(self.dirs[0], {"cpu.cfs_period_us": str(period), "cpu.cfs_quota_us": str(quota)})
            self._set(self.dirs[1], {"cpuset.cpus": "0", "cpuset.mems": mems})
            self._set(self.dirs[2], {"memory.limit_in_bytes": str(PI_MEMORY)})
            self._set(self.dirs[2], {"memory.memsw.limit_in_bytes": str(PI_MEMORY)}, optional=True)

    @staticmethod
    def _set(d, values, optional=False):
        for k, v in values.items():
            try:
                with open(f"{d}/{k}", "w") as f:
                    f.write(v)
            except OSError:
                if not optional:
                    raise

    def join(self):
        """Called in the child before exec: moves it into the cgroup."""
        for d in self.dirs:
            with open(f"{d}/cgroup.procs", "w") as f:
                f.write(str(os.getpid()))

    def memory(self):
        """(peak bytes, OOM kills, times the limit was hit)."""
        d = self.dirs[-1]

        def read(name):
            try:
                with open(f"{d}/{name}") as f:
                    return f.read()
            except OSError:
                return ""

        def field(text, key):
            return next((int(line.split()[1]) for line in text.splitlines() if line.startswith(key + " ")), 0)
        if self.v2:
            events = read("memory.events")
            return int(read("memory.peak") or 0), field(events, "oom_kill"), field(events, "max")
        return (int(read("memory.max_usage_in_bytes") or 0), field(read("memory.oom_control"), "oom_kill"),
                int(read("memory.failcnt") or 0))

    def throttled(self):
        """How often the CPU quota stopped the server, from cpu.stat."""
        d = self.dirs[0]
        try:
            with open(f"{d}/cpu.stat") as f:
                stat = dict(line.split() for line in f if line.strip())
        except OSError:
            return "unknown"
        seconds = int(stat.get("throttled_time", 0)) / 1e9 or int(stat.get("throttled_usec", 0)) / 1e6
        return f"throttled in {int(stat.get('nr_throttled', 0)):,} of {int(stat.get('nr_periods', 0)):,} periods, {seconds:.1f} s in all"

    def remove(self):
        for d in self.dirs:
            try:
                os.rmdir(d)
            except OSError:
                pass


class Run:
    """One data directory, one server; rows of figures."""

    def __init__(self, label, args, cgroup=None):
        self.label, self.args, self.cgroup = label, args, cgroup
        self.work = tempfile.mkdtemp(prefix="hc-figures-")
        self.data = os.path.join(self.work, "data")
        self.rows = []
        self.notes = []

    def fill(self):
        t = time.monotonic()
        out = subprocess.run([FILL, self.data, "--years", str(self.args.years),
                              "--others", "9"], check=True, capture_output=True, text=True).stdout
        self.filled = out.strip().splitlines()[-1]
        print(f"  {self.filled} ({time.monotonic() - t:.0f} s)", flush=True)
        self.store_size = du(self.data)
        self.db_size = store_bytes(self.data)

    def start(self):
        # A cold start, as after a reboot, where the kernel lets us drop the page cache.
        cold = False
        try:
            os.sync()
            with open("/proc/sys/vm/drop_caches", "w") as f:
                f.write("3")
            cold = True
        except OSError:
            pass
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("HIGHCHAIR_")}
        env.update(HIGHCHAIR_LOG_LEVEL="warn", HIGHCHAIR_BACKUP_INTERVAL_HOURS="0",
                   HIGHCHAIR_LIMITS_MAX_CONNECTIONS_PER_IP="128")
        t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [BIN, "serve", "--listen", f"127.0.0.1:{self.port}", "--data-dir", self.data], env=env,
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.work, "server.log"), "wb"),
            preexec_fn=self.cgroup.join if self.cgroup else None)
        try:
            wait_up(self.port, self.proc, timeout=120)
        except SystemExit as e:
            raise SystemExit(f"{e}; see {self.work}/server.log") from None
        started = time.monotonic() - t0
        self.rows.append(("Start (spawn to first `GET /api/health` 200)" + (", page cache dropped" if cold else ""),
                          f"{started:.2f} s", "", "", "", ""))
        time.sleep(5)
        self.idle = mib(rss_kib(self.proc.pid))
        self.rows.append(("RSS idle (5 s after start)", f"{self.idle:.1f} MiB", "", "", "", ""))

    def sessions(self, n):
        """n sessions of the family's parent: the first sign-ins from separate addresses
        without a device cookie (the account-wide limit is 10 per 15 minutes), each then reused
        as a known browser (10 per 15 minutes per device)."""
        out = []
        devices = []
        while len(out) < n:
            k = len(out)
            if k % 8 == 0:
                c = login(self.port, FAMILY, source=f"127.0.0.{2 + k // 8}")
                devices.append(c.cookie)
            else:
                c = login(self.port, FAMILY, source=f"127.0.0.{2 + k // 8}", device=devices[-1])
            out.append(c)
        return out

    def prepare(self):
        self.parent = login(self.port, FAMILY)
        p = self.parent
        self.children = json.loads(p.call("GET", "/api/children")[1])
        page = json.loads(p.call("GET", "/api/meals?limit=50")[1])
        self.thumb = next(m["thumbnailUrl"] for m in page["items"] if m.get("thumbnailUrl"))
        lists = json.loads(p.call("GET", "/api/grocery-lists")[1])
        self.list = lists[0] if isinstance(lists, list) else lists["items"][0]
        status, _, resp = p.call("GET", "/api/meals?limit=50")
        self.meals_etag = resp.getheader("etag")
        counts = {
            "meals on the first page": len(page["items"]),
            "grocery lists": len(lists if isinstance(lists, list) else lists["items"]),
            "recipes": len(json.loads(p.call("GET", "/api/recipes")[1])),
            "plan entries this week": len(json.loads(p.call("GET", "/api/meal-plan")[1])["entries"]),
            "foods in Ava's history": len(json.loads(p.call("GET", f"/api/children/{self.children[0]['id']}/foods")[1])["foods"]),
        }
        self.notes.append("Answers: " + ", ".join(f"{v} {k}" for k, v in counts.items()))

    def drive(self, label, path, extra=(), expect="200"):
        url = f"http://127.0.0.1:{self.port}{path}"
        base = ["-t2", "-c8", "--latency", "-H", f"Cookie: {self.parent.cookie}", *extra]
        wrk([*base, "-d2s", url])
        peak = Sampler(self.proc.pid)
        f = wrk_figures(wrk([*base, f"-d{self.args.seconds}s", url]))
        rss = mib(peak.stop())
        errors = f["non2xx"] + (1 if f["errors"] else 0)
        self.rows.append((label, f"{f['rps']:,.0f}", f"{f['p50']:.2f} ms", f"{f['p99']:.2f} ms",
                          f"{rss:.1f} MiB", "none" if errors == 0 else f"{f['non2xx']} non-2xx {f['errors']}"))
        print(f"  {label}: {f['rps']:,.0f} req/s p50 {f['p50']:.2f} ms p99 {f['p99']:.2f} ms RSS {rss:.1f} MiB"
              f" non-2xx {f['non2xx']} {f['errors']}", flush=True)
        return f

    def endpoints(self):
        child = self.children[0]["id"]
        script = os.path.join(self.work, "tick.lua")
        with open(script, "w") as fh:
            fh.write(WRK_TICK_LUA % {"ids": ", ".join(f'"{i["id"]}"' for i in self.list["items"]),
                                     "list": self.list["id"]})
        self.drive("`GET /api/meals?limit=50` (meals list, first page)", "/api/meals?limit=50")
        self.drive("same, revalidated (`If-None-Match`: 304)", "/api/meals?limit=50",
                   ["-H", f"If-None-Match: {self.meals_etag}"])
        self.drive(f"`GET /api/children/{{id}}/foods` (food history, {self.args.years} years)", f"/api/children/{child}/foods")
        self.drive("`GET /api/grocery-lists` (20 lists x 50 items)", "/api/grocery-lists")
        self.drive("`GET /api/recipes` (100 recipes)", "/api/recipes")
        self.drive("`GET /api/meal-plan` (this week, 21 entries)", "/api/meal-plan")
        self.drive("`GET /api/auth/session` (session check)", "/api/auth/session")
        self.drive("`GET` a meal photo's thumbnail", self.thumb)
        self.drive("`GET /` (the SPA's index.html)", "/")
        self.drive(f"`PATCH` one grocery item (tick/untick, {len(self.list['items'])} items)", "/",
                   ["-s", script])

    def sse(self):
        """50 listeners on /api/events while meals are written."""
        sessions = self.sessions((LISTENERS + STREAMS_PER_SESSION - 1) // STREAMS_PER_SESSION)
        listeners = Listeners(self.port, [(s.source, s.cookie) for s in sessions for _ in range(STREAMS_PER_SESSION)]
                              [:LISTENERS])
        try:
            listeners.wait_ready()
            child = self.children[1]["id"]
            # a. a steady 50 writes a second: every listener must see every write.
            writer = Client(self.port, self.parent.cookie)
            acked = {}
            peak = Sampler(self.proc.pid)
            end = time.monotonic() + self.args.seconds
            next_at = time.monotonic()
            while time.monotonic() < end:
                status, body, _ = writer.call("POST", "/api/meals", {"childId": child, "mealType": "snack",
                                                                     "foods": ["Apple"]})
                assert status == 201, (status, body[:200])
                acked[json.loads(body)["id"]] = time.monotonic()
                next_at += 1 / 50
                time.sleep(max(0.0, next_at - time.monotonic()))
            time.sleep(1)
            rss = mib(peak.stop())
            latencies, missing = listeners.deliveries(acked)
            ms = sorted(x * 1000 for x in latencies)
            self.rows.append((f"SSE: {LISTENERS} listeners, one parent writing 50 meals/s for {self.args.seconds} s: "
                              f"{len(latencies):,} of {len(acked) * LISTENERS:,} deliveries",
                              f"{len(acked) / self.args.seconds:.0f} writes/s",
                              f"{ms[len(ms) // 2]:.2f} ms", f"{ms[int(len(ms) * 0.99)]:.2f} ms", f"{rss:.1f} MiB",
                              "none" if missing == 0 else f"{missing} missed"))
            print("  " + " | ".join(self.rows[-1]), flush=True)
            # b. wrk writing as fast as it can while the 50 listen.
            script = os.path.join(self.work, "meal.lua")
            with open(script, "w") as fh:
                fh.write(WRK_POST_MEAL_LUA % {"child": child})
            before = listeners.count()
            f = self.drive(f"SSE: {LISTENERS} listeners while wrk `POST`s meals (8 connections)", "/api/meals",
                           ["-s", script])
            time.sleep(2)
            got = listeners.count() - before
            self.notes.append(f"While wrk wrote {f['requests']:,} meals in {self.args.seconds} s (plus 2 s of "
                              f"warm-up), the {LISTENERS} listeners received {got:,} change events "
                              f"({listeners.resyncs} resync events, {listeners.closed} streams closed).")
        finally:
            listeners.close()

    def upload_and_generate(self):
        jpeg = open(PHOTO, "rb").read()
        raw, ctype = multipart("photo.jpg", jpeg)
        c = Client(self.port, self.parent.cookie)
        times, peak = [], Sampler(self.proc.pid)
        for _ in range(5):
            t = time.monotonic()
            status, body, _ = c.call("POST", "/api/media", raw=raw, ctype=ctype)
            assert status == 201, (status, body[:200])
            times.append(time.monotonic() - t)
        rss = mib(peak.stop())
        self.rows.append((f"12 MP photo upload ({len(jpeg) / 1048576:.1f} MiB JPEG, 5 one after another)",
                          "", f"{statistics.median(times):.2f} s", f"max {max(times):.2f} s", f"{rss:.1f} MiB", "none"))
        times, peak = [], Sampler(self.proc.pid)
        for i in range(5):
            t = time.monotonic()
            status, body, _ = c.call("POST", "/api/recipes/generate", {
                "ingredients": ["Chicken breast", "Broccoli", "White rice", "Carrot", "Cheddar cheese"][i % 2:],
                "servings": 4, "difficulty": "easy", "quantity": 5})
            assert status == 202, (status, body[:200])
            job = json.loads(body)["jobId"]
            while True:
                state = json.loads(c.call("GET", f"/api/recipes/jobs/{job}")[1])
                if state["state"] in ("done", "failed"):
                    assert state["state"] == "done", state
                    break
                time.sleep(0.005)
            times.append(time.monotonic() - t)
        rss = mib(peak.stop())
        self.rows.append(("Offline recipe generation (built-in, 5 recipes, request to `done`)", "",
                          f"{statistics.median(times) * 1000:.0f} ms", f"max {max(times) * 1000:.0f} ms",
                          f"{rss:.1f} MiB", "none"))

    def finish(self):
        time.sleep(10)
        self.rows.append(("RSS 10 s after the load", f"{mib(rss_kib(self.proc.pid)):.1f} MiB", "", "", "", ""))
        self.proc.terminate()
        self.proc.wait()
        if self.cgroup:
            peak, kills, hits = self.cgroup.memory()
            throttled = self.cgroup.throttled()
            self.notes.append(f"cgroup memory peak {peak / 1048576:.0f} MiB of {PI_MEMORY // 1048576} MiB "
                              f"(page cache included), limit reached {hits} times, OOM kills: {kills}; "
                              f"CPU quota enforced: {throttled}.")
            self.cgroup.remove()
        shutil.rmtree(self.work, ignore_errors=True)

    def report(self):
        print(f"\n### {self.label}\n")
        print(f"Server: {BIN}. Store: {self.filled}; {self.store_size / 1073741824:.1f} GiB on disk, of which the "
              f"database {self.db_size / 1048576:.1f} MiB.\n")
        print("| what | req/s | p50 | p99 | server RSS (peak) | errors |")
        print("|---|---:|---:|---:|---:|---|")
        for r in self.rows:
            print("| " + " | ".join(r) + " |")
        for n in self.notes:
            print(f"\n{n}")


class Listeners:
    """SSE listeners on raw sockets, one thread and a selector for all of them, decoding the
    chunked stream; each remembers when it first saw each record id."""

    def __init__(self, port, who):
        self.sel = selectors.DefaultSelector()
        self.socks = []
        self.seen = []  # per listener: id -> monotonic time
        self.events = 0
        self.resyncs = 0
        self.closed = 0
        self.lock = threading.Lock()
        for n, (source, cookie) in enumerate(who):
            s = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
            s.sendall((f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                       f"Cookie: {cookie}\r\n\r\n").encode())
            s.setblocking(False)
            self.sel.register(s, selectors.EVENT_READ, n)
            self.socks.append(s)
            self.seen.append({})
        self.buf = [b""] * len(who)
        self.head = [True] * len(who)
        self.text = [b""] * len(who)
        self.ready = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop.is_set():
            for key, _ in self.sel.select(0.2):
                n = key.data
                try:
                    data = key.fileobj.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                now = time.monotonic()
                if not data:
                    self.sel.unregister(key.fileobj)
                    self.closed += 1
                    continue
                self._feed(n, data, now)

    def _feed(self, n, data, now):
        buf = self.buf[n] + data
        if self.head[n]:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                self.buf[n] = buf
                return
            assert buf.startswith(b"HTTP/1.1 200"), buf[:200]
            self.head[n] = False
            buf = buf[end + 4:]
        # Chunked transfer coding: size line, data, CRLF.
        while True:
            line = buf.find(b"\r\n")
            if line < 0:
                break
            size = int(buf[:line].split(b";")[0], 16)
            if len(buf) < line + 2 + size + 2:
                break
            self.text[n] += buf[line + 2:line + 2 + size]
            buf = buf[line + 2 + size + 2:]
        self.buf[n] = buf
        # Events end with a blank line.
        text = self.text[n]
        while (end := text.find(b"\n\n")) >= 0:
            self._event(n, text[:end], now)
            text = text[end + 2:]
        self.text[n] = text

    def _event(self, n, raw, now):
        kind = data = None
        for line in raw.split(b"\n"):
            if line.startswith(b"event:"):
                kind = line[6:].strip()
            elif line.startswith(b"data:"):
                data = line[5:].strip()
        with self.lock:
            if kind == b"ready":
                self.ready += 1
            elif kind == b"resync":
                self.resyncs += 1
            elif kind == b"change" and data:
                self.events += 1
                record = json.loads(data).get("id")
                self.seen[n].setdefault(record, now)

    def wait_ready(self):
        deadline = time.monotonic() + 20
        while self.ready < len(self.socks):
            if time.monotonic() > deadline:
                raise SystemExit(f"only {self.ready} of {len(self.socks)} listeners ready ({self.closed} closed)")
            time.sleep(0.05)

    def count(self):
        with self.lock:
            return self.events

    def deliveries(self, acked):
        latencies, missing = [], 0
        with self.lock:
            for seen in self.seen:
                for record, at in acked.items():
                    if record in seen:
                        latencies.append(max(0.0, seen[record] - at))
                    else:
                        missing += 1
        return latencies, missing

    def close(self):
        self.stop.set()
        self.thread.join()
        for s in self.socks:
            s.close()


def run(label, args, cgroup=None):
    print(f"\n== {label}", flush=True)
    r = Run(label, args, cgroup)
    try:
        r.fill()
        r.start()
        r.prepare()
        r.endpoints()
        r.sse()
        r.upload_and_generate()
        r.finish()
    except BaseException:
        if getattr(r, "proc", None) and r.proc.poll() is None:
            r.proc.kill()
        if cgroup:
            cgroup.remove()
        print(f"  (work directory kept: {r.work})")
        raise
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--years", type=int, default=5)
    ap.add_argument("--runs", default="full,pi")
    ap.add_argument("--pi-cpu", type=float, default=0.25,
                    help="share of one core for the Pi-sized run (0.25: one Pi 4 core against a server core)")
    args = ap.parse_args()
    for needed in ("wrk",):
        if not shutil.which(needed):
            sys.exit(f"{needed} is needed: apt-get install -y {needed}")
    if not os.path.exists(PHOTO):
        sys.exit(f"{PHOTO} is missing: cargo run --release --example make_photo -- {PHOTO} 4000 3000")
    runs = []
    for which in args.runs.split(","):
        if which == "full":
            runs.append(run(f"This machine ({os.cpu_count()} cores)", args))
        elif which == "pi":
            cg = Cgroup(args.pi_cpu)
            runs.append(run(f"Pi-sized ({args.pi_cpu:g} of one core, {PI_MEMORY // 1048576} MiB, no swap)",
                            args, cg))
    print(f"\n## Figures, {time.strftime('%Y-%m-%d')}: {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, wrk 2 threads x 8 connections, {args.seconds} s per row after 2 s warm-up")
    print("\n| anchor | idle RSS | list req/s | start |\n|---|---|---|---|")
    for a in ANCHORS:
        print("| " + " | ".join(a) + " |")
    print(f"\nTarget for every list endpoint: >= {20 * LIST_ANCHOR:,} req/s (20 x {LIST_ANCHOR}).")
    for r in runs:
        r.report()


if __name__ == "__main__":
    main()
