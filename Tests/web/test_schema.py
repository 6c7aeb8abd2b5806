"""schemathesis against schemas/openapi.yaml: a bounded number of generated requests, no
5xx, every answer as the document says."""
import subprocess

from conftest import EXAMPLE, ROOT


def test_generated_requests_get_documented_answers(server):
    # Something to find: a creation, a garage image and a few edits.
    photo = EXAMPLE.read_bytes()
    assert server.request("POST", "/api/creations?name=cat&filename=chelsea.png", photo, content_type="image/png")[0] == 201
    assert server.request("POST", "/api/garage?filename=chelsea.png&name=puss", photo, content_type="image/png")[0] == 201
    assert server.json("POST", "/api/creations/cat/edits", {"op": "text", "top": "schema", "bottom": "test"})[0] == 200
    editor_api_conforms(server.base, server.token, max_examples=15)


def editor_api_conforms(base, token, max_examples):
    """schemathesis against schemas/openapi.yaml at `base` as the holder of `token` (a bearer
    token: the document declares bearer authentication, and schemathesis fills that header),
    from the editor's own origin; also run against a hub serving the editor."""
    run = subprocess.run(
        ["schemathesis", "run", str(ROOT / "schemas" / "openapi.yaml"), "--url", base,
         "-H", f"Authorization: Bearer {token}", "-H", f"Origin: {base}",
         "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
         "--max-examples", str(max_examples), "--phases", "examples,fuzzing", "--seed", "7", "--exclude-path", "/api/events",
         "--workers", "1", "--max-time", "45"],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
