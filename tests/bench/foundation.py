#!/usr/bin/env python3
"""Foundation benchmarks (issue 3): binary size, idle RSS, start to first 200, UI initial JS,
GET /api/health throughput next to a hello-world poem server. Prints a Markdown table.

Run from the repository root after `cargo build --release --example hello_poem` and
`cargo build --release`; needs `wrk` (apt-get install -y wrk). Targets 127.0.0.1 only.
"""
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from common import BIN, free_port, rss_kib, wait_up

HELLO = "target/release/examples/hello_poem"


def http_status(port, path):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            head = s.recv(12).decode(errors="replace")
            return int(head[9:12]) if head.startswith("HTTP/1.1") else None
    except OSError:
        return None


def start(cmd, port, path):
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while http_status(port, path) != 200:
        if proc.poll() is not None:
            sys.exit(f"{cmd[0]} exited early")
        time.sleep(0.001)
    return proc, time.perf_counter() - t0


def wrk(port, path, seconds=10):
    out = subprocess.run(
        ["wrk", "-t2", "-c8", f"-d{seconds}s", "--latency", f"http://127.0.0.1:{port}{path}"],
        capture_output=True, text=True, check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+\w+)", out).group(1)
    return rps, p99


def ui_initial_js_gzip():
    """Bytes of the first screen's JavaScript as sent gzip-compressed (the build stores it so)."""
    html = open("ui/dist/index.html").read()
    srcs = re.findall(r'src="(/assets/[^"]+\.js)"', html)
    srcs += re.findall(r'href="(/assets/[^"]+\.js)"', html)  # modulepreload
    return sum(os.path.getsize("ui/dist" + src + ".gz") for src in srcs)


def main():
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install -y wrk")
    data = tempfile.mkdtemp(prefix="hc-bench-")
    rows = []
    rows.append(("Release binary, UI embedded, stripped", f"{os.path.getsize(BIN) / 1e6:.1f} MB", "< 25 MB"))

    starts = []
    for i in range(5):
        port = free_port()
        proc, took = start([BIN, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", f"{data}/d{i}"], port, "/api/health")
        starts.append(took)
        if i < 4:
            proc.terminate()
            proc.wait()
    rows.append(("Start to first 200 on /api/health (median of 5, fresh data dir)", f"{sorted(starts)[2] * 1000:.0f} ms", "< 300 ms"))
    time.sleep(3)
    rows.append(("Idle RSS after start", f"{rss_kib(proc.pid) / 1024:.1f} MiB", "< 30 MB"))
    rows.append(("UI initial JS (gzip -9)", f"{ui_initial_js_gzip() / 1024:.1f} KiB", "< 150 KB"))

    env = dict(os.environ, HIGHCHAIR_LOG_LEVEL="warn")
    proc.terminate()
    proc.wait()
    port = free_port()
    proc = subprocess.Popen([BIN, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", f"{data}/tp"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_up(port, proc)
    wrk(port, "/api/health", 2)  # warm up
    rps, p99 = wrk(port, "/api/health")
    rows.append(("GET /api/health, wrk 2 threads x 8 connections, 10 s", f"{rps:,.0f} req/s (p99 {p99})", "report"))
    rows.append(("  RSS after the load", f"{rss_kib(proc.pid) / 1024:.1f} MiB", ""))
    proc.terminate()
    proc.wait()

    hport = free_port()
    hello = subprocess.Popen([HELLO, f"127.0.0.1:{hport}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while http_status(hport, "/") != 200:
        time.sleep(0.01)
    wrk(hport, "/", 2)
    hrps, hp99 = wrk(hport, "/")
    rows.append(("Hello-world poem server, same wrk run settings", f"{hrps:,.0f} req/s (p99 {hp99})", "baseline"))
    hello.terminate()
    hello.wait()
    shutil.rmtree(data, ignore_errors=True)

    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; date {time.strftime('%Y-%m-%d')}\n")
    print("| measure | result | target |\n|---|---|---|")
    for name, value, target in rows:
        print(f"| {name} | {value} | {target} |")


if __name__ == "__main__":
    main()
