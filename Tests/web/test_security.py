"""Who may talk to `memery serve`: the token, the Host header, same-origin changes, limits."""
import http.client

from conftest import EDGE, shared


def raw(server, method, path, headers, body=None):
    """A request with exactly these headers (urllib would add its own Host)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    if body is not None:
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    answer = connection.getresponse()
    return answer.status, answer.getheaders(), answer.read()


def test_requests_without_the_token_get_401(server):
    status, _, body = server.request("GET", "/api/creations", token=False)
    assert status == 401
    assert b"token" in body
    status, _, _ = server.request("GET", "/api/creations", headers={"Authorization": "Bearer " + "0" * 64}, token=False)
    assert status == 401
    status, _, _ = server.request("GET", "/", token=False)
    assert status == 401


def test_the_url_token_is_traded_for_a_cookie_that_then_works(server):
    status, headers, _ = raw(server, "GET", f"/?token={server.token}", {"Host": f"127.0.0.1:{server.port}"})
    assert status == 303
    headers = dict(headers)
    assert headers["Location"] == "/"
    cookie = headers["Set-Cookie"].split(";")[0]
    assert "HttpOnly" in headers["Set-Cookie"] and "SameSite=Strict" in headers["Set-Cookie"]
    status, _, body = raw(server, "GET", "/api/creations", {"Host": f"127.0.0.1:{server.port}", "Cookie": cookie})
    assert status == 200, body


def test_a_wrong_host_is_refused_even_with_the_token(server):
    for host in ["evil.example:%d" % server.port, "127.0.0.1:1", "attacker.test"]:
        status, _, body = raw(server, "GET", "/api/creations",
                              {"Host": host, "Authorization": f"Bearer {server.token}"})
        assert status == 403, host
        assert b"wrongHost" in body
    status, _, _ = raw(server, "GET", "/api/creations", {"Host": f"localhost:{server.port}", "Authorization": f"Bearer {server.token}"})
    assert status == 200


def test_a_cross_origin_change_is_refused_and_changes_nothing(server):
    before = server.json("GET", "/api/creations")[1]
    body = {"name": "xo", "canvas": "40x30"}
    for headers in [{"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Origin": server.base, "Sec-Fetch-Site": "cross-site"}]:
        status, answer = server.json("POST", "/api/creations", body, headers=headers)
        assert status == 403, headers
        assert answer["kind"] == "crossOrigin"
    # The cookie alone (a browser) must show where the request comes from.
    status, headers, _ = raw(server, "GET", f"/?token={server.token}", {"Host": f"127.0.0.1:{server.port}"})
    cookie = dict(headers)["Set-Cookie"].split(";")[0]
    status, _, _ = raw(server, "POST", "/api/creations", {"Host": f"127.0.0.1:{server.port}", "Cookie": cookie,
                                                         "Content-Type": "application/json"}, b'{"name":"xo","canvas":"40x30"}')
    assert status == 403
    assert server.json("GET", "/api/creations")[1] == before


def test_no_cors_headers_are_sent(server):
    _, headers, _ = server.request("GET", "/api/creations", headers={"Origin": "http://evil.example"})
    assert not any(name.lower().startswith("access-control-") for name in headers)
    assert headers["X-Frame-Options"] == "DENY"
    # Failures carry the same headers as answers: a 401, a 403 and a 404.
    for status_expected, headers_sent, path in [(401, {}, "/api/creations"), (404, None, "/api/creations/none-such"),
                                                 (403, {"Host": "evil.example"}, "/api/creations")]:
        if headers_sent is None:
            status, failed, _ = server.request("GET", path)
        elif "Host" in headers_sent:
            status, failed, _ = raw(server, "GET", path, {"Host": "evil.example", "Authorization": f"Bearer {server.token}"})
            failed = dict(failed)
        else:
            status, failed, _ = server.request("GET", path, token=False)
        assert status == status_expected, path
        assert failed["X-Frame-Options"] == "DENY" and failed["X-Content-Type-Options"] == "nosniff", (status, failed)
        assert "default-src 'self'" in failed["Content-Security-Policy"]


def test_an_oversized_upload_gets_413_and_stores_nothing(server):
    # Sent as a browser would: the answer comes before the body is all sent, and the
    # server closes the connection rather than read 65 MB it will not keep.
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.putrequest("POST", "/api/creations?filename=big.png")
    for name, value in {"Authorization": f"Bearer {server.token}", "Origin": server.base,
                        "Content-Type": "image/png", "Content-Length": str(65 << 20)}.items():
        connection.putheader(name, value)
    connection.endheaders()
    try:
        for _ in range(65 * 16):
            connection.send(b"\0" * 65536)
    except (BrokenPipeError, ConnectionResetError):
        pass
    answer = connection.getresponse()
    assert answer.status == 413
    assert b"--max-upload-mb" in answer.read()
    assert server.json("GET", "/api/creations")[1]["creations"] == []


def test_hostile_images_get_a_clear_error_and_store_nothing(server):
    for name, words in [("decompression_bomb.gif", "pixels"), ("broken.png", "damaged"), ("truncated_jpeg.jpg", "")]:
        data = shared(EDGE / name).read_bytes()
        status, answer = server.json("POST", f"/api/creations?filename={name}", data, content_type="application/octet-stream")
        assert status == 400, (name, answer)
        assert name in answer["error"] and words in answer["error"], answer
    status, answer = server.json("POST", "/api/creations?filename=notes.txt", b"just words", content_type="text/plain")
    assert status == 400
    # Said as what it is, not as a format to convert.
    assert answer["error"] == "notes.txt is text, not a picture: choose a picture (PNG, JPEG, WebP or GIF, as a phone or a camera saves them)", answer
    assert server.json("GET", "/api/creations")[1]["creations"] == []
    assert server.json("GET", "/api/garage")[1]["images"] == []


def test_the_page_is_told_what_to_do_in_its_own_words(server, tmp_path):
    # A format Memery does not take by default: a terminal is told of MEMERY_IMAGE_FORMATS,
    # the page only of what its reader can do (issue 31's defect 5).
    xpm = b'/* XPM */\nstatic char *x[] = {"2 2 1 1", "a c #ff0000", "aa", "aa"};\n'
    status, answer = server.json("POST", "/api/creations?filename=icon.xpm", xpm, content_type="application/octet-stream")
    assert status == 400, answer
    assert "convert it to PNG" in answer["error"] and "MEMERY_" not in answer["error"], answer["error"]
    (tmp_path / "icon.xpm").write_bytes(xpm)
    run = server.memery("new", "scan", "--image", str(tmp_path / "icon.xpm"))
    assert run.returncode != 0 and "MEMERY_IMAGE_FORMATS" in run.stderr, "a terminal keeps its advice"


def test_edits_cannot_name_files_on_the_server(server):
    status, answer = server.json("POST", "/api/creations", {"name": "canvas", "canvas": "60x40"})
    assert status == 201, answer
    status, answer = server.json("POST", "/api/creations/canvas/edits", {"op": "image add", "file": "/etc/passwd"})
    assert status == 400
    assert "upload" in answer["error"]
    status, answer = server.json("POST", "/api/creations", {"name": "x", "image": "/etc/passwd"})
    assert status == 400


def test_a_taken_port_gets_a_plain_message_and_exit_1(tmp_path):
    import socket
    import subprocess
    from conftest import BINARY
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    run = subprocess.run([BINARY, "serve", "--store", str(tmp_path / "store"), "--port", str(port)],
                         capture_output=True, text=True, timeout=60)
    taken.close()
    assert run.returncode == 1
    assert run.stderr == f"error: port {port} on 127.0.0.1 is taken by another program: choose another with --port, or --port 0 for a free one\n"


def test_a_hub_on_a_taken_port_says_so_by_the_error_type_not_its_words():
    import socket
    import subprocess
    from conftest import BINARY, running_hub
    with running_hub() as (_, database):
        taken = socket.socket()
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run([BINARY, "hub", "--database", database, "--port", str(port), "--bcrypt-cost", "4", "--log-level", "error"],
                             capture_output=True, text=True, timeout=60)
        taken.close()
    assert run.returncode == 1, run
    assert run.stderr == f"error: port {port} on 127.0.0.1 is taken by another program: choose another with --port\n", run.stderr


def test_an_address_this_machine_lacks_is_said_as_what_to_do_for_serve_and_hub(tmp_path):
    """192.0.2.1 is TEST-NET-1: never a machine's own. NIO's words name a system call; ours say which flag."""
    import subprocess
    from conftest import BINARY, running_hub
    run = subprocess.run([BINARY, "serve", "--store", str(tmp_path / "store"), "--host", "192.0.2.1", "--allow-remote", "--port", "0"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1, run
    assert run.stderr.endswith("error: this machine has no address 192.0.2.1 to listen on: give one of its own with --host (127.0.0.1 for this machine alone)\n"), run.stderr
    with running_hub() as (_, database):
        run = subprocess.run([BINARY, "hub", "--database", database, "--listen", "192.0.2.1", "--port", "0", "--bcrypt-cost", "4", "--log-level", "error"],
                             capture_output=True, text=True, timeout=60)
    assert run.returncode == 1, run
    assert run.stderr == "error: this machine has no address 192.0.2.1 to listen on: give one of its own with --listen\n", run.stderr


def test_a_hub_whose_database_address_answers_nothing_says_so_at_once():
    """Said from a connection attempt before the pool starts (the pool would retry for its 10 s
    deadline and then say 'did not answer'), with no pool log lines before it."""
    import socket
    import subprocess
    from conftest import BINARY
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    database = f"postgres://nobody@127.0.0.1:{port}/x?sslmode=disable"
    for arguments in (["hub", "--database", database, "--port", "0"], ["hub", "grant-manager", "bob", "--database", database]):
        run = subprocess.run([BINARY] + arguments, capture_output=True, text=True, timeout=60)
        assert run.returncode == 1, run
        assert run.stderr == f"error: nothing answers at the database's address {database}: is PostgreSQL running there, and are the host and port right?\n", run.stderr
