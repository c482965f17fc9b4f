#!/usr/bin/env python3
"""Hardening benchmarks: image memory under the budget, a connection flood, sign-in throttling.

1. Image memory. Every scenario gets its own server (fresh data dir), so VmHWM (the kernel's
   peak RSS) is that scenario's peak; VmRSS is also sampled every 10 ms. Scenarios: idle, one
   12 MP JPEG upload, four in parallel, a 0.2 MB PNG of 8000x8000 (one colour, a decompression
   bomb) alone and four in parallel, a one-colour 4000x3000 PNG, and RSS 10 s after uploads
   end. Run with the default budget (`limits.image_memory_mb` = 128), with 64 MiB, and with the
   default budget plus MALLOC_ARENA_MAX=2 (what packaging/highchair.service sets).
2. Connections: 1,500 idle connections plus 50 half-sent requests from 127.0.0.1, then 20
   GET /api/health from 127.0.0.2; 503 answers, descriptors, RSS, SIGTERM time with the flood
   held. A second run spreads the same flood over 26 source addresses (each under the
   per-client cap) to reach the total cap.
3. Sign-in throttling: wrong passwords from 127.0.0.1 for 20 s, one after another; halfway
   the owner signs in from 127.0.0.3 (a new browser) and from 127.0.0.4 with the device cookie
   that sign-up gave.

Stdlib only; every socket goes to 127.0.0.1 (source addresses in 127.0.0.0/8). Run from the
repository root after `cargo build --release` and
`cargo run --release --example make_photo -- target/photo-12mp.jpg 4000 3000`.
Takes about 2-3 minutes.
"""
import http.client
import json
import os
import platform
import resource
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import threading
import time
import uuid
import zlib

from common import Sampler, Server

PHOTO = "target/photo-12mp.jpg"


def status_kib(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


def server_env(extra):
    """The inherited environment without HIGHCHAIR_* (the server refuses unknown ones) or
    MALLOC_ARENA_MAX, plus the disk guard off and `extra`."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("HIGHCHAIR_") and k != "MALLOC_ARENA_MAX"}
    env.update(HIGHCHAIR_LIMITS_MIN_FREE_DISK_MB="0", **extra)
    return env


class Bench(Server):
    """common.Server with a controlled environment, requests from chosen source addresses
    and a stop that removes the data directory."""

    def __init__(self, env=None):
        saved = dict(os.environ)
        os.environ.clear()
        os.environ.update(server_env(env or {}))
        try:
            super().__init__()  # copies os.environ for the child
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self.pid = self.proc.pid
        self.origin = f"http://127.0.0.1:{self.port}"

    def call(self, method, path, body=None, headers=None, source=None, timeout=60):
        """One request on its own connection: (status, body, set-cookie list, seconds)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                          source_address=(source, 0) if source else None)
        payload = json.dumps(body).encode() if body is not None else None
        hdrs = {"origin": self.origin}
        if payload is not None:
            hdrs["content-type"] = "application/json"
        hdrs.update(headers or {})
        t0 = time.perf_counter()
        try:
            conn.request(method, path, body=payload, headers=hdrs)
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, data, resp.msg.get_all("set-cookie") or [], time.perf_counter() - t0
        finally:
            conn.close()

    def signup(self, email="owner@example.org", password="correct horse battery"):
        """Signs a parent up; returns the cookies set (name -> value)."""
        status, body, cookies, _ = self.call("POST", "/api/auth/signup", {
            "firstName": "Bench", "lastName": "Parent", "email": email, "password": password,
            "role": "mom", "acceptTerms": True})
        assert status in (200, 201), (status, body)
        jar = {}
        for c in cookies:
            name, _, rest = c.partition("=")
            jar[name.strip()] = rest.split(";")[0]
        return jar

    def upload(self, session, data, content_type):
        """POST /api/media with `data` as the multipart field `file`: (status, seconds)."""
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"upload\"\r\n"
                f"Content-Type: {content_type}\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        t0 = time.perf_counter()
        try:
            conn.request("POST", "/api/media", body=body, headers={
                "content-type": f"multipart/form-data; boundary={boundary}",
                "cookie": f"highchair_session={session}", "origin": self.origin})
            resp = conn.getresponse()
            resp.read()
            return resp.status, time.perf_counter() - t0
        finally:
            conn.close()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------------------- images

def png_one_colour(width, height):
    """A real RGB PNG of one colour (black): IHDR, IDAT of zero rows, IEND, with CRCs."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    z = zlib.compressobj(9)
    row = b"\0" * (1 + width * 3)
    idat = b"".join(z.compress(row) for _ in range(height)) + z.flush()
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def upload_scenario(env, files, content_type, settle=0.0):
    """A fresh server; `files` uploaded in parallel (one thread each). Its VmHWM is the
    scenario's peak."""
    server = Bench(env)
    try:
        session = server.signup()["highchair_session"]
        time.sleep(0.3)
        before = status_kib(server.pid, "VmRSS")
        sampler = Sampler(server.pid)
        results = [None] * len(files)

        def one(i):
            try:
                results[i] = server.upload(session, files[i], content_type)
            except OSError as e:
                results[i] = (f"error {e.__class__.__name__}", 0.0)
        t0 = time.perf_counter()
        threads = [threading.Thread(target=one, args=(i,)) for i in range(len(files))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
        wall = time.perf_counter() - t0
        sampled = sampler.stop()
        hwm = status_kib(server.pid, "VmHWM")
        after = None
        if settle:
            time.sleep(settle)
            after = status_kib(server.pid, "VmRSS")
        return {"before": before, "hwm": hwm, "sampled": sampled, "wall": wall,
                "statuses": [r[0] if r else "no answer" for r in results],
                "times": [r[1] if r else 0.0 for r in results], "after": after}
    finally:
        server.stop()


def idle_scenario(env):
    server = Bench(env)
    try:
        server.signup()
        time.sleep(1.0)
        return status_kib(server.pid, "VmRSS"), status_kib(server.pid, "VmHWM")
    finally:
        server.stop()


def count(values):
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return ", ".join(f"{n} x {v}" if n > 1 else f"{v}" for v, n in counts.items())


def image_rows(label, env, photo, bomb, flat, full=True):
    rows = []

    def row(name, r, extra=""):
        times = [t for t in r["times"] if t > 0]
        if len(times) == 1:
            took = f"; {times[0] * 1000:.0f} ms"
        elif times:
            took = f"; {min(times) * 1000:.0f}-{max(times) * 1000:.0f} ms each, {r['wall'] * 1000:.0f} ms in all"
        else:
            took = ""
        rows.append((f"{label}: {name}",
                     f"{count(r['statuses'])}; peak **{mib(r['hwm'])}** (VmHWM; 10 ms VmRSS samples: "
                     f"{mib(r['sampled'])}; before: {mib(r['before'])}){took}{extra}"))

    if full:
        idle_rss, idle_hwm = idle_scenario(env)
        rows.append((f"{label}: (a) idle after start and one sign-up",
                     f"RSS {mib(idle_rss)} (VmHWM {mib(idle_hwm)})"))
        r = upload_scenario(env, [photo], "image/jpeg", settle=10)
        row(f"(b) one 12 MP JPEG ({len(photo) / 1e6:.1f} MB)", r, f"; RSS 10 s later {mib(r['after'])}")
    r = upload_scenario(env, [photo] * 4, "image/jpeg", settle=10)
    row("(c) four 12 MP JPEGs in parallel", r)
    rows.append((f"{label}: (e) RSS 10 s after the four uploads ended", f"**{mib(r['after'])}**"))
    if full:
        r = upload_scenario(env, [bomb], "image/png")
        row(f"(d) PNG bomb 8000x8000 RGB ({len(bomb) / 1e6:.2f} MB), one", r)
        r = upload_scenario(env, [bomb] * 4, "image/png")
        row("(d) PNG bomb 8000x8000, four in parallel", r)
        r = upload_scenario(env, [flat], "image/png")
        row(f"(d') one-colour PNG 4000x3000 RGB ({len(flat) / 1e3:.0f} kB), one", r)
    return rows


# ---------------------------------------------------------------------------- connections

HEALTH = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
HALF = b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n"


def raw_get(port, source):
    """GET /api/health from `source` on a new connection: (status, seconds)."""
    s = socket.socket()
    s.settimeout(10)
    t0 = time.perf_counter()
    try:
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(HEALTH.format(port=port).encode())
        data = b""
        while True:
            part = s.recv(65536)
            if not part:
                break
            data += part
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else "no answer"
    except OSError as e:
        status = f"error {e.__class__.__name__}"
    finally:
        s.close()
    return status, time.perf_counter() - t0


def open_socket(port, source=None, payload=None):
    s = socket.socket()
    s.settimeout(10)
    if source:
        s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    if payload:
        s.sendall(payload)
    return s


def classify(s):
    """What the server did with a flood socket: '503', 'open', 'closed', 'reset' or 'other'."""
    s.setblocking(False)
    try:
        data = s.recv(64, socket.MSG_PEEK)
    except BlockingIOError:
        return "open"
    except ConnectionResetError:
        return "reset"
    if data.startswith(b"HTTP/1.1 503"):
        return "503"
    return "closed" if not data else "other"


def connection_rows(label, idle_sources, half_sources):
    server = Bench()
    flood = []
    try:
        t0 = time.perf_counter()
        for src in idle_sources:
            flood.append(open_socket(server.port, src))
        for src in half_sources:
            flood.append(open_socket(server.port, src, HALF))
        opened = time.perf_counter() - t0
        time.sleep(1.0)
        results = [raw_get(server.port, "127.0.0.2") for _ in range(20)]
        fds = len(os.listdir(f"/proc/{server.pid}/fd"))
        rss = status_kib(server.pid, "VmRSS")
        kinds = {}
        for s in flood:
            k = classify(s)
            kinds[k] = kinds.get(k, 0) + 1
        t1 = time.perf_counter()
        server.proc.send_signal(signal.SIGTERM)
        try:
            server.proc.wait(timeout=30)
            exit_s = f"{time.perf_counter() - t1:.2f} s (exit code {server.proc.returncode})"
        except subprocess.TimeoutExpired:
            exit_s = "did not exit within 30 s"
    finally:
        for s in flood:
            s.close()
        server.stop()
    lat = [r[1] * 1000 for r in results]
    n = len(idle_sources) + len(half_sources)
    others = {k: v for k, v in kinds.items() if k not in ("503", "open")}
    return [
        (f"{label}: {len(idle_sources):,} idle + {len(half_sources)} half-sent connections opened in",
         f"{opened:.2f} s"),
        (f"{label}: 20 x GET /api/health from 127.0.0.2 during the flood",
         f"{count(r[0] for r in results)}; median {statistics.median(lat):.2f} ms, max {max(lat):.2f} ms"),
        (f"{label}: of the {n:,}, answered 503 / still held open",
         f"{kinds.get('503', 0):,} / {kinds.get('open', 0):,}" + (f" (other: {others})" if others else "")),
        (f"{label}: server descriptors (/proc/PID/fd), RSS during the flood", f"{fds:,}; {mib(rss)}"),
        (f"{label}: SIGTERM to exit with the flood held", exit_s),
    ]


# ---------------------------------------------------------------------------- sign-in

def signin_rows():
    server = Bench()
    try:
        email, password = "owner@example.org", "correct horse battery"
        jar = server.signup(email, password)
        device = jar.get("highchair_device")
        counts, owner = {}, {}
        duration = 20.0

        def owner_signs_in():
            time.sleep(duration / 2)
            login = {"email": email, "password": password}
            s, _, _, secs = server.call("POST", "/api/auth/login", login, source="127.0.0.3")
            owner["new"] = (s, secs)
            s, _, _, secs = server.call("POST", "/api/auth/login", login,
                                        {"cookie": f"highchair_device={device}"}, source="127.0.0.4")
            owner["device"] = (s, secs)

        t = threading.Thread(target=owner_signs_in)
        t.start()
        body = json.dumps({"email": email, "password": "wrong password 123"}).encode()
        hdrs = {"content-type": "application/json", "origin": server.origin}
        conn, evaluated_at = None, []
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < duration:
            try:
                conn = conn or http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
                conn.request("POST", "/api/auth/login", body=body, headers=hdrs)
                resp = conn.getresponse()
                resp.read()
                counts[resp.status] = counts.get(resp.status, 0) + 1
                if resp.status == 401:
                    evaluated_at.append(time.perf_counter() - t0)
                if resp.will_close:
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException) as e:
                counts[e.__class__.__name__] = counts.get(e.__class__.__name__, 0) + 1
                if conn:
                    conn.close()
                conn = None
        elapsed = time.perf_counter() - t0
        if conn:
            conn.close()
        t.join(60)
    finally:
        server.stop()
    sent = sum(counts.values())
    ev, refused = counts.get(401, 0), counts.get(429, 0)
    other = {k: v for k, v in counts.items() if k not in (401, 429)}
    when = f" (the 401s at {', '.join(f'{x:.2f}' for x in evaluated_at[:8])} s)" if evaluated_at else ""
    rows = [
        ("Wrong passwords for an existing account from 127.0.0.1, one after another, 20 s: attempts sent",
         f"{sent:,} ({sent / elapsed:,.0f}/s)" + (f"; other answers {other}" if other else "")),
        ("  evaluated (401) / refused before hashing (429)", f"{ev:,} / {refused:,}{when}"),
        ("  evaluated per minute over the 20 s", f"{ev / elapsed * 60:.1f}"),
    ]
    for key, who in (("new", "from 127.0.0.3, a new browser (no device cookie)"),
                     ("device", "from 127.0.0.4 with sign-up's device cookie")):
        s, secs = owner.get(key, ("not run", 0.0))
        rows.append((f"Owner signs in at 10 s, {who}", f"**{s}** in {secs * 1000:.0f} ms"))
    return rows


# ---------------------------------------------------------------------------- main

def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < 4096:
        want = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    started = time.time()
    photo = open(PHOTO, "rb").read()
    bomb = png_one_colour(8000, 8000)
    flat = png_one_colour(4000, 3000)

    rows = []
    rows += image_rows("128 MiB budget (default)", {}, photo, bomb, flat)
    rows += image_rows("64 MiB budget", {"HIGHCHAIR_LIMITS_IMAGE_MEMORY_MB": "64"}, photo, bomb, flat)
    rows += image_rows("128 MiB budget, MALLOC_ARENA_MAX=2", {"MALLOC_ARENA_MAX": "2"}, photo, bomb, flat,
                       full=False)
    rows += connection_rows("Flood from 127.0.0.1", [None] * 1500, [None] * 50)
    rows += connection_rows("Flood spread over 127.0.1.1-26",
                            [f"127.0.1.{1 + i // 60}" for i in range(1500)], ["127.0.1.26"] * 50)
    rows += signin_rows()

    free = subprocess.run(["free", "-m"], capture_output=True, text=True).stdout.splitlines()
    mem = free[1].split()[1] if len(free) > 1 else "?"
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, {mem} MiB RAM (free -m), "
          f"kernel {platform.release()}; date {time.strftime('%Y-%m-%d')}; run took {time.time() - started:.0f} s\n")
    print("| measure | result |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
