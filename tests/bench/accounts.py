#!/usr/bin/env python3
"""Accounts benchmarks (issue 4): sign-in latency with the production PBKDF2 cost, and how many
sign-ins per second the server sustains while GET /api/auth/session stays fast for others.

Run from the repository root after `cargo build --release`. Targets 127.0.0.1 only. The server
trusts 127.0.0.1 as a proxy so each simulated client can send its own X-Forwarded-For address
(otherwise the per-IP sign-in limit, 20 per 15 minutes, would stop the benchmark).
"""
import http.client
import os
import platform
import threading
import time

from common import Server, percentile

ACCOUNTS = 120
PASSWORD = "correct horse battery"


def main():
    server = Server({"HIGHCHAIR_SERVER_TRUSTED_PROXIES": "127.0.0.1"})
    try:
        for i in range(ACCOUNTS):
            status, _, _ = server.request(
                "POST", "/api/auth/signup",
                {"firstName": "Bench", "lastName": f"User{i}", "email": f"bench{i}@example.org",
                 "password": PASSWORD, "acceptTerms": True},
                {"x-forwarded-for": f"10.1.{i // 200}.{i % 200}"},
            )
            assert status == 201, status
        # A separate family whose session is checked while others sign in.
        _, _, cookie = server.request("POST", "/api/auth/login", {"email": "bench0@example.org", "password": PASSWORD},
                                      {"x-forwarded-for": "10.9.9.9"})
        session_cookie = cookie.split(";")[0]

        # Sign-in latency, one at a time.
        latencies = []
        for i in range(12):
            t0 = time.perf_counter()
            status, _, _ = server.request("POST", "/api/auth/login",
                                          {"email": f"bench{i + 1}@example.org", "password": PASSWORD},
                                          {"x-forwarded-for": f"10.2.0.{i}"})
            latencies.append((time.perf_counter() - t0) * 1000)
            assert status == 200, status
        rows = [("Sign-in latency, one at a time (12 sign-ins, 600,000 iterations)",
                 f"median {percentile(latencies, 0.5):.0f} ms, max {max(latencies):.0f} ms")]

        counter = [0]
        next_account = [13]
        lock = threading.Lock()

        def signer(stop, _):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            while not stop.is_set():
                with lock:
                    attempt = next_account[0]
                    next_account[0] += 1
                # A fresh address per attempt: the per-IP limit (20 per 15 minutes) must not be
                # what is measured. Accounts rotate, staying under the per-account limit.
                ip = f"10.{4 + attempt // 62500}.{attempt // 250 % 250}.{attempt % 250}"
                status, _, _ = server.request("POST", "/api/auth/login",
                                              {"email": f"bench{attempt % ACCOUNTS}@example.org", "password": PASSWORD},
                                              {"x-forwarded-for": ip}, conn)
                assert status == 200, status
                with lock:
                    counter[0] += 1

        def session_prober(stop, samples):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            while not stop.is_set():
                t0 = time.perf_counter()
                status, _, _ = server.request("GET", "/api/auth/session", headers={"cookie": session_cookie}, conn=conn)
                samples.append((time.perf_counter() - t0) * 1000)
                assert status == 200, status
                time.sleep(0.005)

        for signers in (0, 1, 2, 4, 8):
            stop = threading.Event()
            samples = []
            counter[0] = 0
            threads = [threading.Thread(target=signer, args=(stop, f"10.3.{signers}.{k}")) for k in range(signers)]
            threads += [threading.Thread(target=session_prober, args=(stop, samples)) for _ in range(2)]
            for t in threads:
                t.start()
            seconds = 12
            time.sleep(seconds)
            stop.set()
            for t in threads:
                t.join()
            rows.append((f"{signers} clients signing in continuously + 2 clients polling GET /api/auth/session",
                         f"{counter[0] / seconds:.1f} sign-ins/s; session p50 {percentile(samples, 0.5):.1f} ms, "
                         f"p99 {percentile(samples, 0.99):.1f} ms ({len(samples)} checks)"))
    finally:
        server.stop()

    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; date {time.strftime('%Y-%m-%d')}\n")
    print("| measure | result |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
