"""A page that closes while its picture is rendered stops the filter at work: the web
editor asks for a new preview at every slider move, and a render nobody waits for would
hold a core until it ended or reached its time limit."""
import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest

from conftest import BINARY, EXAMPLE, ROOT, Server

PLUGINS = ROOT / "Tests" / "MemeryRenderTests" / "Plugins"
INCLUDE = ROOT / "Sources" / "MemeryPluginABI" / "include"


def alive(pid):
    try:
        os.kill(pid, 0)
        # (Reaped between the two looks: gone, which is what the test waits for.)
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        return False


@pytest.fixture
def holding_server():
    folder = tempfile.mkdtemp(prefix="memery-cancel-")
    plugins = os.path.join(folder, "plugins")
    os.makedirs(plugins)
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-I", str(INCLUDE), "-DBROKEN=19", "-o", os.path.join(plugins, "holder.so"),
                    str(PLUGINS / "broken.c")], check=True)
    hold = os.path.join(folder, "hold")
    env = dict(os.environ, MEMERY_PLUGIN_PATH=plugins, MEMERY_TEST_HOLD=hold, MEMERY_FILTER_TIMEOUT="60")
    store = os.path.join(folder, "store")
    for command in (["new", "m", "--image", str(EXAMPLE)], ["filter", "apply", "m", "org.example.holder"]):
        done = subprocess.run([BINARY, *command, "--store", store], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    running = Server(store, env=env)
    yield running, hold
    if os.path.exists(hold):
        os.remove(hold)  # a failed test leaves the filter waiting, and the server waits for it
    running.stop()
    shutil.rmtree(folder, ignore_errors=True)


def test_closing_the_connection_stops_the_filter_and_the_server_goes_on(holding_server):
    server, hold = holding_server
    open(hold, "w").close()  # from now on the filter waits until told to stop
    client = socket.create_connection(("127.0.0.1", server.port))
    client.sendall(f"GET /api/creations/m/render?width=200 HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                   f"Authorization: Bearer {server.token}\r\n\r\n".encode())
    deadline = time.monotonic() + 30
    while not os.path.exists(hold + ".pid") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os.path.exists(hold + ".pid"), "the filter never started"
    helper = int(open(hold + ".pid").read())
    assert alive(helper)

    client.close()  # the page is gone
    closed = time.monotonic()
    while alive(helper) and time.monotonic() - closed < 10:
        time.sleep(0.05)
    assert not alive(helper), "the helper still runs 10 s after the page closed (its limit is 60 s)"
    assert time.monotonic() - closed < 3, f"it took {time.monotonic() - closed:.1f} s to stop"
    assert os.path.exists(hold + ".stopped"), "the filter was killed, not asked: progress() never answered false"

    os.remove(hold)
    status, headers, body = server.request("GET", "/api/creations/m/render?width=200")
    assert status == 200 and body[:2] == b"\xff\xd8", (status, body[:200])
