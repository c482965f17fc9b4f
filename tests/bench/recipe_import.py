#!/usr/bin/env python3
"""Recipe import through the server (issue 31).

The fixture site (the `recipe_pages` example) serves the 4.5 MB page on loopback; the server is
allowed to fetch from loopback (HIGHCHAIR_RECIPES_IMPORT_ALLOW_PRIVATE). One parent imports:

1. `huge.html` by its address, 20 times: wall time of POST /api/recipes/import (the loopback
   fetch of 4.5 MB included; the in-process figure without it is the `import_pages` example);
2. `huge-microdata.html` (the same page with its recipe in microdata: the page's tree is built),
   20 times;
3. the same two pages pasted as `html` (no fetch), 20 times each.

Memory: the server's VmRSS idle, the highest VmRSS during each part (sampled every 10 ms),
VmHWM at the end, and VmRSS 65 s later (free heap is given back every 60 s). Stdlib only; every socket goes to 127.0.0.1. Run from the repository root
after `cargo build --release` and `cargo build --release --examples`.
"""
import json
import re
import statistics
import subprocess
import time
import urllib.request

from common import Client, Sampler, Server, cookies_of, percentile, rss_kib

SITE = "target/release/examples/recipe_pages"
RUNS = 20


def vm_hwm(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmHWM:\s+(\d+)", f.read()).group(1))


def parent(port, label):
    c = Client(port)
    email = re.sub(r"[^a-z]+", "-", label.lower()).strip("-") + "@bench.test"
    status, body, resp = c.call("POST", "/api/auth/signup", {
        "firstName": "Bench", "lastName": "Import", "email": email,
        "password": "correct horse battery", "role": "dad", "acceptTerms": True})
    assert status == 201, (status, body)
    c.cookie = cookies_of(resp)
    return c


def main():
    site = subprocess.Popen([SITE, "--port", "0"], stdout=subprocess.PIPE, text=True)
    url = re.search(r"listening on (\S+)", site.stdout.readline()).group(1)
    pages = {name: urllib.request.urlopen(f"{url}/{name}").read().decode() for name in
             ("huge.html", "huge-microdata.html")}
    server = Server({"HIGHCHAIR_RECIPES_IMPORT_ALLOW_PRIVATE": "true"})
    try:
        pid = server.proc.pid
        print(f"server RSS idle: {rss_kib(pid) / 1024:.1f} MiB")
        for label, make in [
            ("huge.html by address", lambda: {"url": f"{url}/huge.html"}),
            ("huge-microdata.html by address", lambda: {"url": f"{url}/huge-microdata.html"}),
            ("huge.html pasted", lambda: {"html": pages["huge.html"]}),
            ("huge-microdata.html pasted", lambda: {"html": pages["huge-microdata.html"]}),
        ]:
            # A parent of their own for each part: a family may import 60 times an hour.
            c = parent(server.port, label)
            sampler = Sampler(pid)
            times = []
            for _ in range(RUNS):
                body = make()
                start = time.perf_counter()
                status, answer, _ = c.call("POST", "/api/recipes/import", body)
                times.append((time.perf_counter() - start) * 1000)
                assert status == 200, (status, answer[:200])
                assert json.loads(answer)["recipes"][0]["title"], answer[:200]
            peak = sampler.stop()
            print(f"{label:<34} median {statistics.median(times):7.1f} ms  "
                  f"p95 {percentile(times, 0.95):7.1f} ms  peak RSS {peak / 1024:6.1f} MiB")
        print(f"server VmHWM at the end: {vm_hwm(pid) / 1024:.1f} MiB; "
              f"RSS now {rss_kib(pid) / 1024:.1f} MiB")
        # The server gives free heap back every 60 s (src/memory.rs).
        time.sleep(65)
        print(f"RSS 65 s later: {rss_kib(pid) / 1024:.1f} MiB")
    finally:
        server.stop()
        site.terminate()
        site.wait()


if __name__ == "__main__":
    main()
