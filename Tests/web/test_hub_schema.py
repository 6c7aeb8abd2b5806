"""schemathesis against schemas/hub-openapi.yaml: a `memery hub` on a throwaway PostgreSQL
(initdb and pg_ctl as the unprivileged postgres user, on a free loopback port), a bounded
number of generated requests, no 5xx, every answer as the document says."""
import glob
import json
import os
import shutil
import socket
import subprocess
import tempfile
import urllib.request

import pytest

from conftest import BINARY, ROOT


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def as_postgres(*command):
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run(prefix + list(command), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/tmp")


@pytest.fixture(scope="module")
def hub():
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
    process = None
    try:
        subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "memery", "-d", "postgres", "-q", "-c", "CREATE DATABASE hub"],
                       check=True, capture_output=True)
        process = subprocess.Popen([BINARY, "hub", "--database", f"postgres://memery@127.0.0.1:{port}/hub?sslmode=disable",
                                    "--port", "0", "--bcrypt-cost", "4", "--log-level", "error"],
                                   stdout=subprocess.PIPE, text=True)
        line = process.stdout.readline()
        assert "http://" in line, line
        yield line.split()[-1]
    finally:
        if process:
            process.kill()
            process.wait()
        as_postgres(f"{bin_dir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


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
