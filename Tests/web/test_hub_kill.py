"""A hub serving the editor killed (SIGKILL) while a page's edits are in flight, then started
again on the same database, its cache folder deleted or left as the killed process left it:
every edit the hub acknowledged is there, through the editor API and on a CLI machine that
syncs (docs/hub.md, "Working copies": an edit from a page is acknowledged only once its
push is committed; the folder is a cache). Edits that got no answer may or may not be."""
import http.client
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time

import pytest

from conftest import BINARY, ROOT, hub_started, throwaway_postgres

PASSWORD = "correct horse"
SENDERS = 4
# Acknowledged edits before the kill: the senders go on sending, so the kill lands among them.
BEFORE_KILL = 40


class Page:
    """What the signed-in editor page sends: the session cookie and the hub's own Origin."""

    def __init__(self, hub, cookie=None):
        self.hub, self.cookie = hub, cookie
        host, port = hub.removeprefix("http://").rsplit(":", 1)
        self.connection = http.client.HTTPConnection(host, int(port), timeout=60)

    def request(self, method, path, body=None, content_type="application/json"):
        """(status, parsed JSON or raw bytes); raises OSError / HTTPException when no answer came."""
        headers = {"Origin": self.hub}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if body is not None:
            headers["Content-Type"] = content_type
            body = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.connection.request(method, path, body=body, headers=headers)
        answer = self.connection.getresponse()
        data = answer.read()
        if answer.getheader("Set-Cookie"):
            self.cookie = answer.getheader("Set-Cookie").split(";")[0]
        try:
            return answer.status, json.loads(data)
        except ValueError:
            return answer.status, data

    def close(self):
        self.connection.close()


def signed_in(hub, user, signup=False):
    page = Page(hub)
    if signup:
        status, body = page.request("POST", "/v1/accounts", {"user": user, "password": PASSWORD})
        assert status == 201, body
    status, body = page.request("POST", "/v1/browser/session", {"user": user, "password": PASSWORD})
    assert status == 201 and page.cookie and page.cookie.startswith("memery-session="), (status, body)
    return page


def captions(page, name):
    status, body = page.request("GET", f"/api/creations/{name}")
    assert status == 200, body
    return {layer["text"] for layer in body["layers"] if layer.get("kind") == "text"}


@pytest.mark.parametrize("cache", ["deleted", "left as the killed hub left it"])
def test_a_hub_killed_mid_edit_and_started_again_has_every_acknowledged_edit(cache):
    folder = tempfile.mkdtemp(prefix="memery-hub-kill-")
    cache_dir = os.path.join(folder, "cache")
    try:
        with throwaway_postgres() as database:
            with hub_started(database, "--cache-dir", cache_dir) as (hub, process):
                page = signed_in(hub, "kim", signup=True)
                status, body = page.request("POST", "/api/creations?name=cat&filename=chelsea.png",
                                            (ROOT / "examples" / "chelsea.png").read_bytes(), "image/png")
                assert status == 201, body

                acknowledged, refused, unanswered = set(), {}, set()
                lock = threading.Lock()

                def send(sender):
                    own = Page(hub, page.cookie)
                    try:
                        for i in range(100_000):
                            text = f"edit {sender}-{i}"
                            try:
                                status, body = own.request("POST", "/api/creations/cat/edits", {"op": "text add", "text": text, "caps": False})
                            except (OSError, http.client.HTTPException):
                                with lock:
                                    unanswered.add(text)
                                return
                            with lock:
                                if 200 <= status < 300:
                                    acknowledged.add(text)
                                else:
                                    refused[text] = (status, body)
                    finally:
                        own.close()

                senders = [threading.Thread(target=send, args=(n,), daemon=True) for n in range(SENDERS)]
                for thread in senders:
                    thread.start()
                deadline = time.time() + 60
                while len(acknowledged) < BEFORE_KILL:
                    assert time.time() < deadline, f"{len(acknowledged)} edits acknowledged in 60 s; refused: {list(refused.items())[:3]}"
                    assert all(t.is_alive() for t in senders), f"a sender stopped before the kill: {unanswered}, {list(refused.items())[:3]}"
                    time.sleep(0.005)
                os.kill(process.pid, signal.SIGKILL)
                process.wait()
                for thread in senders:
                    thread.join(timeout=60)
                assert not any(t.is_alive() for t in senders), "a sender still waits for its answer from a dead hub"
                page.close()
                # Before the kill every edit was acknowledged: none was refused or said to be maybe lost.
                assert not refused, f"edits refused before the kill: {list(refused.items())[:5]}"
                print(f"{len(acknowledged)} acknowledged, {len(unanswered)} in flight at the kill")

            if cache == "deleted":
                shutil.rmtree(cache_dir)
            with hub_started(database, "--cache-dir", cache_dir) as (hub, _):
                page = signed_in(hub, "kim")
                kept = captions(page, "cat")
                print(f"{len(kept & unanswered)} of the {len(unanswered)} unanswered edits kept")
                missing = acknowledged - kept
                assert not missing, f"{len(missing)} of {len(acknowledged)} acknowledged edits lost: {sorted(missing)[:10]}"
                # Only what was sent is there; an edit that got no answer may be.
                assert kept <= acknowledged | unanswered, sorted(kept - acknowledged - unanswered)[:10]
                # The creation goes on: an edit after the restart is kept beside the others.
                status, body = page.request("POST", "/api/creations/cat/edits", {"op": "text add", "text": "after the restart", "caps": False})
                assert status == 200, body
                assert captions(page, "cat") == kept | {"after the restart"}
                page.close()

                # A machine of the same person syncs and has every acknowledged edit too.
                store = os.path.join(folder, "machine")
                run = lambda *args, stdin=None: subprocess.run([BINARY, *args, "--store", store], capture_output=True, text=True,
                                                              input=stdin, timeout=120)
                login = run("login", hub, "--user", "kim", "--password-stdin", stdin=PASSWORD + "\n")
                assert login.returncode == 0, login.stderr
                synced = run("sync")
                assert synced.returncode == 0, synced.stderr
                shown = run("show", "cat", "--json")
                assert shown.returncode == 0, shown.stderr
                on_machine = {layer["text"] for layer in json.loads(shown.stdout)["layers"] if layer.get("kind") == "text"}
                assert on_machine == kept | {"after the restart"}, (sorted(acknowledged - on_machine)[:10], sorted(on_machine - kept)[:10])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
