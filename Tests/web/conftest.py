"""A `memery serve` on a fresh store for each test module, and how to talk to it.

The binary is .build/debug/memery (or $MEMERY_BIN); the server listens on a free loopback
port (--port 0) and prints its address with the token, which the fixture reads."""
import contextlib
import glob
import http.server
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("MEMERY_BIN", str(ROOT / ".build" / "debug" / "memery"))
PHOTOS = ROOT.parent / "shared" / "testdata" / "images" / "photos"
EDGE = ROOT.parent / "shared" / "testdata" / "images" / "edge"
# The repository's own picture: the editor's tests never skip for want of ../shared.
EXAMPLE = ROOT / "examples" / "chelsea.png"


@contextlib.contextmanager
def local_site(handler):
    """A web site on loopback answered by `handler` (an http.server request handler); yields its address."""
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    site.daemon_threads = True
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}"
    finally:
        site.shutdown()


def shared(path):
    """A test picture from ../shared, or a skip that says why."""
    if not path.exists():
        pytest.skip(f"{path} is absent (../shared/testdata is not here)")
    return path


class Server:
    def __init__(self, store, extra=(), env=None):
        self.store = store
        self.process = subprocess.Popen([BINARY, "serve", "--store", store, *extra], env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"(http://[^ ]+?):(\d+)/\?token=([0-9a-f]+)", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"memery serve printed {line!r}; stderr: {self.process.stderr.read()}")
        self.url, self.port, self.token = match.group(0), int(match.group(2)), match.group(3)
        self.base = f"http://127.0.0.1:{self.port}"

    def request(self, method, path, body=None, headers=None, token=True, content_type=None):
        """(status, headers, body bytes); never raises on an HTTP status."""
        data = body
        all_headers = dict(headers or {})
        if isinstance(body, (dict, list)):
            data = json.dumps(body).encode()
            content_type = content_type or "application/json"
        if content_type:
            all_headers["Content-Type"] = content_type
        if token:
            all_headers.setdefault("Authorization", f"Bearer {self.token}")
        if method not in ("GET", "HEAD"):
            all_headers.setdefault("Origin", self.base)
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def json(self, method, path, body=None, **kwargs):
        status, headers, data = self.request(method, path, body, **kwargs)
        return status, json.loads(data) if data else None

    def memery(self, *args):
        """Runs the CLI on the same store (another process)."""
        return subprocess.run([BINARY, *args, "--store", self.store], capture_output=True, text=True, timeout=120)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                raise
        return self.process.returncode


@pytest.fixture(scope="module")
def server():
    folder = tempfile.mkdtemp(prefix="memery-web-")
    running = Server(os.path.join(folder, "store"))
    yield running
    code = running.stop()
    shutil.rmtree(folder, ignore_errors=True)
    assert code == 0, f"memery serve exited {code} after Ctrl-C"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def as_postgres(*command):
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run(prefix + list(command), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/tmp")


@contextlib.contextmanager
def hub_started(database, *extra):
    """Another `memery hub` on `database`, with `extra` arguments: (its address, its process),
    for a test that kills it itself (by its pid; it is killed at the end if still running)."""
    process = subprocess.Popen([BINARY, "hub", "--database", database, "--port", "0", "--bcrypt-cost", "4", "--log-level", "error", *extra],
                               stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert "http://" in line, line
        yield line.split()[-1], process
    finally:
        process.kill()
        process.wait()
        process.stdout.close()


@contextlib.contextmanager
def hub_process(database, *extra):
    """Another `memery hub` on `database`, with `extra` arguments: its address."""
    with hub_started(database, *extra) as (address, _):
        yield address


@contextlib.contextmanager
def throwaway_postgres():
    """A throwaway PostgreSQL (initdb and pg_ctl as the unprivileged postgres user, on a free
    loopback port) with an empty database `hub`: that database's address."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.skip("PostgreSQL's initdb is absent (scripts/bootstrap installs Debian's postgresql)")
    bin_dir = os.path.dirname(found[-1])
    folder = tempfile.mkdtemp(prefix="memery-pg-", dir="/tmp")
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    port = free_port()
    data = os.path.join(folder, "data")
    as_postgres(f"{bin_dir}/initdb", "-D", data, "-A", "trust", "-U", "memery", "--no-sync", "-E", "UTF8")
    as_postgres(f"{bin_dir}/pg_ctl", "-D", data, "-w", "-l", os.path.join(folder, "log"), "-o",
                f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
    try:
        subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "memery", "-d", "postgres", "-q", "-c", "CREATE DATABASE hub"],
                       check=True, capture_output=True)
        yield f"postgres://memery@127.0.0.1:{port}/hub?sslmode=disable"
    finally:
        as_postgres(f"{bin_dir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def running_hub(*extra):
    """A `memery hub` on a throwaway PostgreSQL (throwaway_postgres), started with `extra`
    arguments: (its address, its database's address)."""
    with throwaway_postgres() as database:
        with hub_process(database, *extra) as address:
            yield address, database


def reveal(driver, element_id):
    """Opens the editor's tool sheet that holds `element_id`, by pressing its button in the
    tool bar as a person would, when the element is not on screen yet."""
    from selenium.webdriver.common.by import By
    sheet = driver.execute_script(
        "const e = document.getElementById(arguments[0]) || document.querySelector(arguments[0]);"
        "return e?.closest('.sheet-page')?.dataset.sheet || null", element_id)
    shown = driver.execute_script(
        "const e = document.getElementById(arguments[0]) || document.querySelector(arguments[0]);"
        "return Boolean(e && e.getClientRects().length)", element_id)
    if sheet and not shown:
        driver.find_element(By.CSS_SELECTOR, f'.tool-bar [data-sheet="{sheet}"]').click()
