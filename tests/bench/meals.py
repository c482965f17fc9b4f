#!/usr/bin/env python3
"""Meal and photo benchmarks (issue 5): a 12-megapixel JPEG upload to stored photo + thumbnail
(time and peak RSS), and GET /api/meals (50 of 1,000 stored) under 8 connections.

Run from the repository root after `cargo build --release` and
`cargo run --release --example make_photo -- target/photo-12mp.jpg 4000 3000`. Needs wrk.
Targets 127.0.0.1 only.
"""
import http.client
import os
import platform
import re
import subprocess
import time
import uuid

from common import Server, percentile, rss_kib

PHOTO = "target/photo-12mp.jpg"


def vm_hwm_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def upload(server, cookie, data):
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"IMG.jpg\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    t0 = time.perf_counter()
    conn.request("POST", "/api/media", body=body,
                 headers={"content-type": f"multipart/form-data; boundary={boundary}", "cookie": cookie})
    resp = conn.getresponse()
    resp.read()
    elapsed = time.perf_counter() - t0
    conn.close()
    assert resp.status == 201, resp.status
    return elapsed


def main():
    data = open(PHOTO, "rb").read()
    server = Server()
    try:
        _, _, cookie = server.request("POST", "/api/auth/signup", {
            "firstName": "Bench", "lastName": "Parent", "email": "bench@example.org",
            "password": "correct horse battery", "acceptTerms": True})
        cookie = cookie.split(";")[0]
        rss_before = rss_kib(server.proc.pid)
        times = [upload(server, cookie, data) for _ in range(5)]
        peak = vm_hwm_kib(server.proc.pid)
        rows = [
            (f"12-megapixel JPEG upload ({len(data) / 1e6:.1f} MB, 4000x3000, EXIF) to stored 2048 px photo + 320 px thumbnail",
             f"median {percentile(times, 0.5) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms (5 uploads)"),
            ("RSS before the uploads / peak RSS (VmHWM) during them",
             f"{rss_before / 1024:.1f} MiB / {peak / 1024:.1f} MiB"),
        ]

        status, body, _ = server.request("POST", "/api/children", {"name": "Emma"}, {"cookie": cookie})
        child = re.search(rb'"id":"([^"]+)"', body).group(1).decode()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        t0 = time.perf_counter()
        for i in range(1000):
            status, _, _ = server.request("POST", "/api/meals", {
                "childId": child, "mealType": "Dinner", "foods": ["Pasta", "Peas", f"Dish {i}"],
                "notes": "Ate most of it", "mealDate": "2025-01-01T00:00:00Z" if i == 0 else None},
                {"cookie": cookie}, conn)
            assert status == 201, status
        rows.append(("Recording 1,000 meals one after another (each flushed to disk before the reply)",
                     f"{(time.perf_counter() - t0) * 1000 / 1000:.1f} ms per meal"))

        out = subprocess.run(
            ["wrk", "-t2", "-c8", "-d10s", "--latency", "-H", f"Cookie: {cookie}", f"http://127.0.0.1:{server.port}/api/meals"],
            capture_output=True, text=True, check=True).stdout
        rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        p99 = re.search(r"99%\s+([\d.]+\w+)", out).group(1)
        p50 = re.search(r"50%\s+([\d.]+\w+)", out).group(1)
        rows.append(("GET /api/meals (first page: 50 of 1,000), wrk 2 threads x 8 connections, 10 s",
                     f"{rps:,.0f} req/s, p50 {p50}, p99 {p99}"))
        rows.append(("RSS after the load", f"{rss_kib(server.proc.pid) / 1024:.1f} MiB"))
    finally:
        server.stop()

    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; date {time.strftime('%Y-%m-%d')}\n")
    print("| measure | result |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
