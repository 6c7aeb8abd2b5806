"""The editor's event stream (/api/events) while nothing happens: a comment at each keep-alive
(15 s; MEMERY_EVENT_KEEPALIVE_MS shortens it here), so that a proxy's idle timeout (HAProxy's
`timeout server`, 60 s in packaging/haproxy.cfg) does not cut a quiet page's stream, and the
changes still come between the comments."""
import os
import shutil
import socket
import tempfile
import time

from conftest import Server


def read_until(connection, said, text, seconds):
    """Reads the stream until `text` is in what it said (kept in `said`), or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while text not in said[0] and time.monotonic() < deadline:
        connection.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            piece = connection.recv(65536)
        except socket.timeout:
            break
        if not piece:
            break
        said[0] += piece.decode(errors="replace")
    return text in said[0]


def test_a_quiet_stream_says_a_comment_and_still_brings_changes():
    folder = tempfile.mkdtemp(prefix="memery-events-")
    server = Server(os.path.join(folder, "store"), env={**os.environ, "MEMERY_EVENT_KEEPALIVE_MS": "300"})
    try:
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        connection.sendall((f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                            f"Authorization: Bearer {server.token}\r\nAccept: text/event-stream\r\n\r\n").encode())
        said = [""]
        assert read_until(connection, said, "event: hello", 20), said[0]
        said[0] = ""
        assert read_until(connection, said, ": still here", 10), f"no comment in 10 s of quiet: {said[0]!r}"
        # Comments keep coming while nothing changes, about one each 300 ms.
        said[0] = ""
        read_until(connection, said, "never said", 2)
        assert said[0].count(": still here") >= 2, said[0]
        assert "event: change" not in said[0]
        # A change is still said, among them.
        assert server.memery("new", "quiet", "--canvas", "10x10").returncode == 0
        assert read_until(connection, said, '"creation":"quiet"', 20), said[0]
        connection.close()
    finally:
        assert server.stop() == 0
        shutil.rmtree(folder, ignore_errors=True)
