"""schemathesis against schemas/hub-openapi.yaml: a `memery hub` on a throwaway PostgreSQL
(initdb and pg_ctl as the unprivileged postgres user, on a free loopback port), a bounded
number of generated requests, no 5xx, every answer as the document says."""
import json
import subprocess
import urllib.request

import pytest

from conftest import ROOT, running_hub


@pytest.fixture(scope="module")
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
