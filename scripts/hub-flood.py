#!/usr/bin/env python3
"""An anonymous flood against hubs on 127.0.0.1, for `make bench-hub` to measure another
user's latency meanwhile (issue 30 §5): wrong-password logins for made-up and real names,
large anonymous bodies (announced, and sent chunked without a length), and connections
that trickle a byte a second. Runs until killed or SECONDS pass; prints what it was
answered as JSON on stdout.

    scripts/hub-flood.py HUB[,HUB...] SECONDS [--victim NAME]
"""
import json
import socket
import sys
import threading
import time
import urllib.parse
from collections import Counter

hubs = sys.argv[1].split(",")
seconds = float(sys.argv[2])
victim = sys.argv[sys.argv.index("--victim") + 1] if "--victim" in sys.argv else "alice"
deadline = time.time() + seconds
answers = Counter()
lock = threading.Lock()


def count(kind):
    with lock:
        answers[kind] += 1


def connect(hub):
    address = urllib.parse.urlparse(hub)
    sock = socket.create_connection((address.hostname, address.port), timeout=30)
    return sock


def status_of(sock):
    data = b""
    while b"\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            return "closed"
        data += chunk
    return data.split(b" ", 2)[1].decode()


def logins(n):
    body_for = lambda i: json.dumps({"user": victim if i % 2 else f"nobody{n}x{i}", "password": "not the password",
                                     "device": "flood"}).encode()
    i = 0
    while time.time() < deadline:
        hub = hubs[i % len(hubs)]
        try:
            with connect(hub) as sock:
                body = body_for(i)
                sock.sendall(b"POST /v1/sessions HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                             b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
                count("login " + status_of(sock))
        except OSError:
            count("login error")
        i += 1


def large_bodies(n):
    chunk = b"x" * (1 << 20)
    i = 0
    while time.time() < deadline:
        hub = hubs[(n + i) % len(hubs)]
        count("large body sent")
        try:
            with connect(hub) as sock:
                if i % 2:
                    # Announced: refused from the headers alone.
                    sock.sendall(b"POST /v1/accounts HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                                 b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (94 << 20))
                else:
                    # Unannounced: chunks until the hub cuts it off.
                    sock.sendall(b"POST /v1/accounts HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                                 b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
                    for _ in range(94):
                        sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                count("large body " + status_of(sock))
        except OSError:
            count("large body cut off")
        i += 1


def trickle(n):
    while time.time() < deadline:
        count("trickle opened")
        try:
            with connect(hubs[n % len(hubs)]) as sock:
                sock.sendall(b"POST /v1/sessions HTTP/1.1\r\nHost: h\r\n")
                while time.time() < deadline:
                    sock.sendall(b"X")
                    time.sleep(1)
        except OSError:
            count("trickle closed by the hub")


threads = [threading.Thread(target=logins, args=(n,), daemon=True) for n in range(32)]
threads += [threading.Thread(target=large_bodies, args=(n,), daemon=True) for n in range(4)]
threads += [threading.Thread(target=trickle, args=(n,), daemon=True) for n in range(100)]
for thread in threads:
    thread.start()
while time.time() < deadline:
    time.sleep(0.2)
print(json.dumps(dict(sorted(answers.items()))))
