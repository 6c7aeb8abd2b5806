"""schemathesis against schemas/hub-openapi.yaml: a `memery hub` on a throwaway PostgreSQL
(initdb and pg_ctl as the unprivileged postgres user, on a free loopback port), a bounded
number of generated requests, no 5xx, every answer as the document says."""
import json
import subprocess
import urllib.request

import pytest

from conftest import ROOT, running_hub


# A hub of its own for each test: the generated requests include failed logins from this
# address, and its login limit would then refuse the next test's login (429).
@pytest.fixture
def hub():
    with running_hub() as (address, _database):
        yield address


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return answer.status, json.loads(answer.read() or b"null")


def test_generated_requests_get_documented_answers(hub):
    assert post(hub + "/v1/accounts", {"user": "schema", "password": "long enough"})[0] == 201
    status, login = post(hub + "/v1/sessions", {"user": "schema", "password": "long enough", "device": "schemathesis"})
    assert status == 201
    run = subprocess.run(
        ["schemathesis", "run", str(ROOT / "schemas" / "hub-openapi.yaml"), "--url", hub,
         "-H", f"Authorization: Bearer {login['token']}",
         "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
         "--max-examples", "15", "--phases", "examples,fuzzing", "--seed", "7",
         # The event stream never ends; logging out or deleting the account would end the run's session.
         "--exclude-path", "/v1/events/watch", "--exclude-method", "DELETE",
         "--workers", "1", "--max-time", "60"],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def hub_event(stream, batch, event_id, parent=None, payload='{"id":"L1","text":"hi"}', time_ms=1_700_000_000_000):
    """An event as a store sends it, with the checksum HubEvent.checksum makes."""
    import hashlib
    import struct
    fields = [event_id, batch, stream, parent or "", "TextLayerEdited", "1", str(time_ms), payload, ""]
    digest = hashlib.sha256()
    for field in fields:
        data = field.encode()
        digest.update(struct.pack(">Q", len(data)) + data)
    return {"id": event_id, "batch": batch, "stream": stream, "parent": parent, "type": "TextLayerEdited", "schemaVersion": 1,
            "time": time_ms, "payload": payload, "blobs": [], "checksum": digest.hexdigest()}


def test_the_same_push_sent_twice_at_once_is_stored_once_and_answered_twice(hub):
    import concurrent.futures
    import uuid
    assert post(hub + "/v1/accounts", {"user": "twice", "password": "long enough"})[0] == 201
    token = post(hub + "/v1/sessions", {"user": "twice", "password": "long enough", "device": "test"})[1]["token"]
    stream = str(uuid.uuid4())
    for round in range(5):
        batch = str(uuid.uuid4())
        events = [hub_event(stream, batch, batch)] + [hub_event(stream, batch, str(uuid.uuid4())) for _ in range(3)]
        body = json.dumps({"key": f"push-{batch}", "seen": 0, "events": events}).encode()

        def send():
            request = urllib.request.Request(hub + "/v1/events", data=body, method="POST",
                                             headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
            with urllib.request.urlopen(request) as answer:
                return answer.status, json.loads(answer.read())

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            answers = list(pool.map(lambda _: send(), range(4)))
        assert all(status == 200 for status, _ in answers), answers
        assert sorted(a["replayed"] for _, a in answers) == [False, True, True, True], answers
        assert {a["position"] for _, a in answers} == {4 * (round + 1)}, answers
