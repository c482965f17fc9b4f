"""Helpers shared by the benchmark programs: start the release binary, talk HTTP, read RSS."""
import http.client
import json
import os
import re
import socket
import subprocess
import tempfile
import threading
import time

# The build to measure, taken out of the environment (the server refuses HIGHCHAIR_* variables
# that are not settings): the server binary and the `fill_store` example that writes its store,
# so another build (an older release, a worktree with its own target directory) is measured by
# the same programs and filled by its own example.
BIN = os.environ.pop("HIGHCHAIR_BIN", "target/release/highchair")
FILL = os.environ.pop("HIGHCHAIR_FILL", "target/release/examples/fill_store")
# The 12 MP photo figures.py uploads (make_photo), taken out here too so no server sees it.
PHOTO = os.environ.pop("HIGHCHAIR_PHOTO", "target/photo-12mp.jpg")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def du(path):
    """Bytes a directory takes on disk (allocated blocks)."""
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(root, f)).st_blocks * 512
            except OSError:
                pass
    return total


def store_bytes(data_dir):
    """Bytes the store's database takes on disk, photo files left out: `highchair.db` with its
    `-wal` and `-shm` files (the SQLite store), or `db/` (the sled store of releases before
    issue 28), whichever is there (both while an upgrade is under way)."""
    total = du(os.path.join(data_dir, "db"))
    for name in ("highchair.db", "highchair.db-wal", "highchair.db-shm"):
        try:
            total += os.lstat(os.path.join(data_dir, name)).st_blocks * 512
        except OSError:
            pass
    return total


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def wait_up(port, proc=None, timeout=20):
    """Seconds until `GET /api/health` on `port` answers 200. Before the server listens, a
    connection can meet itself (the kernel may pick the free port as the client's own: TCP
    simultaneous open) and read back its own request: that counts as not up yet, like a refusal."""
    started = time.monotonic()
    while True:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            conn.request("GET", "/api/health")
            if conn.getresponse().status == 200:
                return time.monotonic() - started
        except (OSError, http.client.HTTPException):
            pass
        finally:
            conn.close()
        if time.monotonic() - started > timeout:
            raise SystemExit(f"the server on port {port} did not start in {timeout} s")
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"the server on port {port} exited with {proc.returncode}")
        time.sleep(0.01)


class Server:
    """`highchair serve` on a fresh data directory, 127.0.0.1 only."""

    def __init__(self, env=None):
        self.dir = tempfile.mkdtemp(prefix="hc-bench-")
        self.port = free_port()
        full_env = dict(os.environ, HIGHCHAIR_LOG_LEVEL="warn", **(env or {}))
        self.proc = subprocess.Popen(
            [BIN, "serve", "--listen", f"127.0.0.1:{self.port}", "--data-dir", f"{self.dir}/data"],
            env=full_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wait_up(self.port, self.proc)

    def request(self, method, path, body=None, headers=None, conn=None):
        own = conn is None
        conn = conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        payload = json.dumps(body).encode() if body is not None else None
        hdrs = {"content-type": "application/json"} if payload is not None else {}
        hdrs.update(headers or {})
        conn.request(method, path, body=payload, headers=hdrs)
        resp = conn.getresponse()
        data = resp.read()
        result = (resp.status, data, resp.getheader("set-cookie"))
        if own:
            conn.close()
        return result

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


class Sampler:
    """The process's VmRSS every 10 ms in a thread; `stop()` returns the highest sample (KiB)."""

    def __init__(self, pid):
        self.pid, self.max, self._stop = pid, 0, threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self):
        while not self._stop.is_set():
            try:
                self.max = max(self.max, rss_kib(self.pid))
            except OSError:
                return
            time.sleep(0.01)

    def stop(self):
        self._stop.set()
        self._t.join()
        return self.max


def percentile(samples, p):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


class Client:
    """One keep-alive HTTP/1.1 connection to the server (a phone, a tab), optionally from
    another loopback address (127.0.0.2 ...: the server's per-address limits see another
    client). Retries once on a dropped connection."""

    def __init__(self, port, cookie="", source="127.0.0.1"):
        self.port = port
        self.cookie = cookie
        self.source = source
        self.conn = self._connect()

    def _connect(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.source, 0))

    def call(self, method, path, body=None, raw=None, ctype=None, headers=None):
        hdrs = dict(headers or {})
        if self.cookie:
            hdrs["cookie"] = self.cookie
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            hdrs["content-type"] = "application/json"
        elif ctype:
            hdrs["content-type"] = ctype
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=data, headers=hdrs)
                resp = self.conn.getresponse()
                return resp.status, resp.read(), resp
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = self._connect()
                if attempt:
                    raise


PASSWORD = "correct horse battery"


def cookies_of(resp):
    """The `name=value` pairs a response sets, as one Cookie header."""
    return "; ".join(h.split(";")[0] for k, h in resp.getheaders() if k.lower() == "set-cookie")


def login(port, email, source="127.0.0.1", device=""):
    """Signs in (the fill_store password); `device` is a device cookie from an earlier
    sign-in of this account (the account-wide limit does not hold a known browser)."""
    c = Client(port, device, source)
    status, body, resp = c.call("POST", "/api/auth/login", {"email": email, "password": PASSWORD})
    assert status == 200, (status, body)
    c.cookie = cookies_of(resp)
    return c


def multipart(name, data):
    boundary = "benchboundary7d1"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def wrk(args):
    """Runs wrk (apt-get install -y wrk) and returns what it printed."""
    import subprocess
    return subprocess.run(["wrk", *args], capture_output=True, text=True, check=True).stdout


def wrk_figures(out):
    """requests/s, request count, latency percentiles (ms; wrk --latency), non-2xx/3xx answers,
    socket errors, bytes read, and the counts a script's `done` printed as ANSWERS a=n ..."""
    def dur(s):
        v, unit = re.fullmatch(r"([\d.]+)(\w+)", s).groups()
        return float(v) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]
    lat = re.search(r"Latency\s+(\S+)\s+(\S+)\s+(\S+)", out)
    figures = {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),
        "max": dur(lat.group(3)) if lat else float("nan"),
        "non2xx": int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0,
        "errors": m.group(0) if (m := re.search(r"Socket errors:.*", out)) else "",
        "bytes": m.group(1) if (m := re.search(r"requests in [\d.]+\w+, ([\d.]+\w+) read", out)) else "",
    }
    for p in ("50", "90", "99"):
        m = re.search(rf"^\s+{p}(?:\.000)?%\s+(\S+)", out, re.M)
        figures[f"p{p}"] = dur(m.group(1)) if m else float("nan")
    if m := re.search(r"ANSWERS (.*)", out):
        for pair in m.group(1).split():
            k, v = pair.split("=")
            figures[k] = int(v)
    return figures
