"""Helpers shared by the benchmark programs: start the release binary, talk HTTP, read RSS."""
import http.client
import json
import os
import socket
import subprocess
import tempfile
import time

BIN = "target/release/highchair"


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


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


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
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                if self.request("GET", "/api/health")[0] == 200:
                    return
            except OSError:
                time.sleep(0.02)
        raise SystemExit("server did not start")

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


def percentile(samples, p):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]
