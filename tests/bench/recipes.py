#!/usr/bin/env python3
"""Recipe generation benchmarks (issue 12).

1. Built-in generator, 5 recipes: wall time through HTTP (POST /api/recipes/generate, then
   GET /api/recipes/jobs/{id} back to back on a keep-alive connection until `done`) and the
   server's own time (its `recipe job finished ... ms=` log line, whole milliseconds), 50 runs
   for each of six requests (2, 5 and 10 ingredients; plain, and with allergies and vegetarian).
   One parent per request (the family limit is 60 jobs an hour). The in-process figure is the
   `builtin_recipes` example, run at the end.
2. Ollama (the fake, model `slow`: ~20 chunks over ~3 s, the first at once), 10 trials: the job
   stream (SSE) is opened right after the 202; measured from the 202, and from the moment the
   model's first chunk reached the server, to the first `generating` event with progress > 0.
   The server talks to the fake through a small TCP relay in this script that stamps every
   chunk (`"done":false`) as it passes, which also gives the fake's real chunk interval.
3. Memory: 20 parents each queue one job on the fake (`slow`, timeout 300 s); server RSS idle,
   with the 20 jobs submitted, with a job stream open for each (as 20 browsers would), peak
   (VmRSS every 10 ms, and VmHWM), and after all 20 finished.

Stdlib only; every socket goes to 127.0.0.1. Run from the repository root after
`cargo build --release` and `cargo build --release --examples`. Takes about 2 minutes.
"""
import http.client
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time

import common
from common import Sampler, Server, free_port, rss_kib, wait_up

FAKE = "target/release/examples/fake_ollama"
IN_PROCESS = "target/release/examples/builtin_recipes"
PASSWORD = "correct horse battery"
RUNS = 50
TRIALS = 10
QUEUED = 20

SETS = [
    ("2 ingredients", ["Chicken breast", "Broccoli"], [], []),
    ("5 ingredients", ["Chicken breast", "Broccoli", "White rice", "Carrot", "Eggs"], [], []),
    ("10 ingredients", ["Chicken breast", "Broccoli", "White rice", "Carrot", "Eggs", "Cheddar cheese",
                        "Penne", "Red pepper", "Sweet potato", "Chopped tomatoes"], [], []),
    ("2 ingredients, allergies milk + egg, vegetarian", ["Chickpeas", "Spinach"], ["milk", "egg"], ["vegetarian"]),
    ("5 ingredients, allergies milk + egg, vegetarian",
     ["Chicken breast", "Broccoli", "White rice", "Carrot", "Eggs"], ["milk", "egg"], ["vegetarian"]),
    ("10 ingredients, allergies milk + egg + peanuts, vegetarian",
     ["Chicken breast", "Broccoli", "White rice", "Carrot", "Eggs", "Cheddar cheese", "Penne",
      "Red pepper", "Sweet potato", "Chopped tomatoes"], ["milk", "egg", "peanuts"], ["vegetarian"]),
]


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


class LoggedServer(Server):
    """common.Server with its log kept (common.Server sends it to /dev/null) at info level, in
    an environment without other HIGHCHAIR_* variables (the server refuses unknown ones), the
    given settings, and 127.0.0.1 trusted as a proxy so each parent can sign up from its own
    X-Forwarded-For address (sign-up is limited to 10 an hour per address)."""

    def __init__(self, env):
        self.dir = tempfile.mkdtemp(prefix="hc-bench-")
        self.port = free_port()
        self.log_path = f"{self.dir}/server.log"
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("HIGHCHAIR_")}
        full_env.update(HIGHCHAIR_LOG_LEVEL="info", HIGHCHAIR_SERVER_TRUSTED_PROXIES="127.0.0.1", **env)
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                [common.BIN, "serve", "--listen", f"127.0.0.1:{self.port}", "--data-dir", f"{self.dir}/data"],
                env=full_env, stdout=subprocess.DEVNULL, stderr=log)
        try:
            wait_up(self.port, self.proc)
        except SystemExit as e:
            raise SystemExit(f"{e}; see {self.log_path}") from None

    def signup(self, n):
        """A new parent (and family) signed up from 10.12.0.n; returns the session cookie."""
        status, body, cookie = self.request("POST", "/api/auth/signup", {
            "firstName": "Bench", "lastName": f"Parent{n}", "email": f"bench{n}@example.org",
            "password": PASSWORD, "role": "mom", "acceptTerms": True},
            {"x-forwarded-for": f"10.12.{n // 250}.{n % 250 + 1}"})
        assert status == 201, (status, body[:200])
        return cookie.split(";")[0]

    def generate(self, cookie, ingredients, allergies=(), diets=(), conn=None):
        """POST /api/recipes/generate for 5 recipes; returns the job id (202 asserted)."""
        status, body, _ = self.request("POST", "/api/recipes/generate", {
            "ingredients": list(ingredients), "servings": 2, "difficulty": "easy", "quantity": 5,
            "allergies": list(allergies), "dietaryRestrictions": list(diets)}, {"cookie": cookie}, conn)
        assert status == 202, (status, body[:300])
        return json.loads(body)["jobId"]

    def job_ms(self):
        """job id -> ms from the log's `recipe job finished` lines."""
        with open(self.log_path, errors="replace") as f:
            return {m.group(1): int(m.group(2)) for m in
                    re.finditer(r"recipe job finished job\.id=(\S+) .*?\bms=(\d+)", f.read())}

    def finish(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class FakeOllama:
    """The fake Ollama example binary on a free port."""

    def __init__(self):
        self.proc = subprocess.Popen([FAKE, "--port", "0"], stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.match(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if not m:
            self.proc.kill()
            raise SystemExit(f"fake_ollama did not start: {line!r}")
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


class Relay:
    """A TCP relay from a local port to the fake. Every answer chunk of a chat stream (a line
    with "done":false, and the final "done":true) is stamped with time.perf_counter() when its
    bytes arrive from the fake, before they are passed on to the server."""

    MARKS = (b'"done":false', b'"done":true')

    def __init__(self, target_port):
        self.target = target_port
        self.lock = threading.Lock()
        self.chunks = []   # perf_counter of each chunk line seen
        self.ends = []     # perf_counter of each final line seen
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            for s in (client, upstream):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=self._pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, True), daemon=True).start()

    def _pump(self, src, dst, from_fake):
        tail = b""
        keep = max(len(m) for m in self.MARKS) - 1
        try:
            while True:
                data = src.recv(65536)
                now = time.perf_counter()
                if not data:
                    break
                if from_fake:
                    seen = tail + data
                    with self.lock:
                        self.chunks += [now] * seen.count(self.MARKS[0])
                        self.ends += [now] * seen.count(self.MARKS[1])
                    tail = seen[-keep:]
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def chunks_after(self, t0):
        with self.lock:
            return [t for t in self.chunks if t > t0], [t for t in self.ends if t > t0]

    def stop(self):
        self.listener.close()


class JobStream:
    """GET /api/recipes/jobs/{id}/events, read in a thread: (perf_counter, event, data) each."""

    def __init__(self, server, cookie, job):
        self.events = []
        self.ended = threading.Event()
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=400)
        self.conn.request("GET", f"/api/recipes/jobs/{job}/events",
                          headers={"cookie": cookie, "accept": "text/event-stream"})
        self.resp = self.conn.getresponse()
        self.opened = time.perf_counter()
        assert self.resp.status == 200, self.resp.status
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        event = None
        try:
            while True:
                line = self.resp.readline()
                if not line:
                    break
                line = line.decode().rstrip("\r\n")
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    self.events.append((time.perf_counter(), event, json.loads(line[5:])))
                    if event in ("done", "failed"):
                        break
        finally:
            self.ended.set()
            self.conn.close()


# ------------------------------------------------------------------------------------------------
# 1. Built-in generator through HTTP.

def until_done(server, cookie, job, conn):
    """GET the job back to back until it is finished; returns (job, number of GETs)."""
    polls = 0
    while True:
        status, body, _ = server.request("GET", f"/api/recipes/jobs/{job}", None, {"cookie": cookie}, conn)
        polls += 1
        assert status == 200, (status, body[:300])
        state = json.loads(body)
        if state["state"] in ("done", "failed"):
            assert state["state"] == "done", state.get("error")
            return state, polls


def builtin_rows():
    server = LoggedServer({"HIGHCHAIR_RECIPES_GENERATOR": "builtin"})
    rows = []
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        warm = server.signup(0)
        t0 = time.perf_counter()
        job = server.generate(warm, SETS[1][1], conn=conn)
        until_done(server, warm, job, conn)
        first_wall = (time.perf_counter() - t0) * 1000
        time.sleep(0.1)
        first_server = server.job_ms().get(job)
        for n, (label, ingredients, allergies, diets) in enumerate(SETS, start=1):
            cookie = server.signup(n)
            walls, polls, jobs, made = [], [], [], set()
            for _ in range(RUNS):
                t0 = time.perf_counter()
                job = server.generate(cookie, ingredients, allergies, diets, conn)
                state, k = until_done(server, cookie, job, conn)
                walls.append((time.perf_counter() - t0) * 1000)
                polls.append(k)
                jobs.append(job)
                made.add(len(state["recipes"]))
            time.sleep(0.2)
            logged = server.job_ms()
            ms = [logged[j] for j in jobs]
            rows.append((label, f"{statistics.median(walls):.1f} / {max(walls):.1f} ms",
                         f"{statistics.median(ms):g} / {max(ms)} ms",
                         f"{'/'.join(map(str, sorted(made)))}; {statistics.median(polls):.0f} GETs"))
        rows.append(("first job after start (5 ingredients; loads the catalogue; not in the rows above)", f"{first_wall:.1f} ms",
                     f"{first_server} ms", "one run"))
    finally:
        server.finish()
    return rows


# ------------------------------------------------------------------------------------------------
# 2. First progress to the browser, Ollama (fake, slow).

def first_progress_rows(fake):
    relay = Relay(fake.port)
    server = LoggedServer({"HIGHCHAIR_RECIPES_GENERATOR": "ollama", "HIGHCHAIR_RECIPES_OLLAMA_URL": relay.url,
                           "HIGHCHAIR_RECIPES_OLLAMA_MODEL": "slow"})
    from_202, from_chunk, chunk_after_202, first_pct, intervals, totals = [], [], [], [], [], []
    push, open_before, unpaired = [], 0, 0
    try:
        cookie = server.signup(1)
        for _ in range(TRIALS):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            t_send = time.perf_counter()
            job = server.generate(cookie, SETS[1][1], conn=conn)
            t202 = time.perf_counter()
            stream = JobStream(server, cookie, job)
            assert stream.ended.wait(60), "the job did not finish within 60 s"
            conn.close()
            assert stream.events[-1][1] == "done", stream.events[-1]
            progress = [(t, d["progress"]) for t, event, d in stream.events
                        if event == "generating" and d["progress"] > 0]
            # The previous job's chunks all came before its `done`, so before this POST.
            chunks, ends = relay.chunks_after(t_send)
            chunks = [t for t in chunks if t < ends[0]]
            first = chunks[0]
            from_202.append((progress[0][0] - t202) * 1000)
            from_chunk.append((progress[0][0] - first) * 1000)
            chunk_after_202.append((first - t202) * 1000)
            first_pct.append(progress[0][1])
            open_before += stream.opened < first
            # Each chunk moves the percentage, so the n-th progress event is the n-th chunk's.
            if len(progress) == len(chunks):
                push += [(t - c) * 1000 for c, (t, _) in zip(chunks, progress) if c > stream.opened]
            else:
                unpaired += 1
            intervals += [(b - a) * 1000 for a, b in zip(chunks, chunks[1:])]
            totals.append((ends[0] - first) * 1000)
            time.sleep(0.3)
    finally:
        server.finish()
        relay.stop()

    def spread(xs, digits=1):
        return (f"median {statistics.median(xs):.{digits}f} ms, min {min(xs):.{digits}f}, "
                f"max {max(xs):.{digits}f}")
    pct = sorted(set(first_pct))
    return [
        ("202 -> first `generating` event with progress > 0 (stream opened right after the 202)",
         spread(from_202)),
        ("model's first chunk reaches the server -> that event at the SSE client",
         f"{spread(from_chunk)} (stream already open when the chunk came: {open_before} of {TRIALS} trials)"),
        ("202 -> the model's first chunk reaches the server (job started, its state stored, request "
         "sent to the model; negative: before the client had the 202)", spread(chunk_after_202)),
        ("progress in that first event", "-".join(map(str, [pct[0], pct[-1]] if len(pct) > 1 else pct)) + " %"),
        ("every chunk that came while the stream was open -> its progress event at the SSE client",
         f"{spread(push)}, p99 {sorted(push)[int(len(push) * 0.99)]:.1f} ({len(push)} chunks"
         + (f"; {unpaired} trials left out: events and chunks did not pair)" if unpaired else ")")),
        ("the fake's chunk interval (`slow`; chunks per answer)",
         f"{spread(intervals)} ({len(intervals) // TRIALS + 1} chunks)"),
        ("the fake's first to last chunk", spread(totals, digits=0)),
    ]


# ------------------------------------------------------------------------------------------------
# 3. Memory with 20 jobs queued.

def queue_rows(fake):
    server = LoggedServer({"HIGHCHAIR_RECIPES_GENERATOR": "ollama", "HIGHCHAIR_RECIPES_OLLAMA_URL": fake.url,
                           "HIGHCHAIR_RECIPES_OLLAMA_MODEL": "slow", "HIGHCHAIR_RECIPES_TIMEOUT_SECS": "300"})
    rows = []
    try:
        pid = server.proc.pid
        started = rss_kib(pid)
        cookies = [server.signup(n) for n in range(1, QUEUED + 1)]
        time.sleep(1)
        idle = rss_kib(pid)
        sampler = Sampler(pid)
        t0 = time.perf_counter()
        jobs = [server.generate(c, SETS[2][1]) for c in cookies]
        submit_ms = (time.perf_counter() - t0) * 1000
        time.sleep(0.5)
        queued = rss_kib(pid)
        states = [json.loads(server.request("GET", f"/api/recipes/jobs/{j}", None, {"cookie": c})[1])
                  for c, j in zip(cookies, jobs)]
        waiting = sum(s["state"] == "queued" for s in states)
        last_position = states[-1]["position"]
        streams = [JobStream(server, c, j) for c, j in zip(cookies, jobs)]
        time.sleep(0.5)
        watched = rss_kib(pid)
        for s in streams:
            assert s.ended.wait(300), "a job did not finish"
        wall = time.perf_counter() - t0
        peak = sampler.stop()
        after = rss_kib(pid)
        time.sleep(5)
        later = rss_kib(pid)
        hwm = status_kib(pid, "VmHWM")
        done = sum(s.events[-1][1] == "done" for s in streams)
        rows = [
            ("idle: after start / after 20 sign-ups", f"{mib(started)} / {mib(idle)}"),
            (f"20 jobs submitted ({submit_ms:.0f} ms for the 20 POSTs): {QUEUED - waiting} generating, "
             f"{waiting} waiting, last at position {last_position}", mib(queued)),
            ("the same with a job stream (SSE) open for each of the 20", mib(watched)),
            ("peak while the 20 ran (VmRSS every 10 ms / VmHWM since start)", f"{mib(peak)} / {mib(hwm)}"),
            (f"all 20 finished ({done} done, {wall:.0f} s from the first POST), at once / 5 s later",
             f"{mib(after)} / {mib(later)}"),
        ]
    finally:
        server.finish()
    return rows


def in_process():
    return subprocess.run([IN_PROCESS, "1000"], capture_output=True, text=True, check=True).stdout.strip()


def table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def main():
    for path in (common.BIN, FAKE, IN_PROCESS):
        if not os.path.exists(path):
            raise SystemExit(f"{path} is missing: cargo build --release && cargo build --release --examples")
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; "
          f"date {time.strftime('%Y-%m-%d')}\n")

    print(f"Built-in generator, 5 recipes asked, servings 2, easy; {RUNS} runs each "
          "(server time: the `recipe job finished` log line, whole ms)\n")
    table(["request", "HTTP: POST -> `done` by polling GET, median / max", "server, median / max",
           "recipes made; GETs per run (median)"], builtin_rows())
    print("In process (`builtin_recipes` example, 1000 varied requests):\n")
    print(in_process() + "\n")

    fake = FakeOllama()
    try:
        print(f"Ollama, fake model `slow`, {TRIALS} trials, 5 ingredients, 5 recipes asked\n")
        table(["measure", "result"], first_progress_rows(fake))
        print(f"Memory: {QUEUED} parents, one job each on the fake `slow` model, timeout 300 s\n")
        table(["moment", "server RSS"], queue_rows(fake))
    finally:
        fake.stop()


if __name__ == "__main__":
    main()
