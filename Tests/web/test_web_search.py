"""Searching the web for pictures (`memery search --web`) and taking one with its credits
(`new --from-web`, `show`, `export --credits`), against a local server that answers the
providers' API paths with their documented shapes (fixtures/web-search, sources noted there)
and serves the pictures. The providers' addresses are settings; the code paths are the real ones."""
import http.server
import json
import os
import pathlib
import socket
import subprocess
import time
import urllib.parse

import pytest

from conftest import BINARY, EXAMPLE, local_site

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "web-search"
PICTURE = EXAMPLE.read_bytes()


class Providers(http.server.BaseHTTPRequestHandler):
    slow = False
    thumbnails_sent = 0

    def log_message(self, *args):
        pass

    def answer(self, status, body, kind="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def fixture(self, name):
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.answer(200, (FIXTURES / name).read_text().replace("{base}", base).encode())

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        words = (query.get("q") or query.get("gsrsearch") or [""])[0]
        if words == "slow":
            time.sleep(6)
        if url.path == "/v1/images/":
            if words == "garbled":
                return self.answer(200, b'{"results": "not a list"}')
            if words == "nothing":
                return self.answer(200, b'{"result_count": 0, "page_count": 0, "page_size": 20, "page": 1, "results": []}')
            return self.fixture("openverse-search.json")
        if url.path == "/v1/images/0d3c8e1a-5b7f-4e2a-9c61-2f4b8a9d7e10/":
            return self.fixture("openverse-image.json")
        if url.path == "/v1/images/7a1e4c22-9f0b-4d5e-8b3a-61c2d0e9f4aa/":
            result = json.loads((FIXTURES / "openverse-search.json").read_text())["results"][1]
            base = f"http://127.0.0.1:{self.server.server_address[1]}"
            return self.answer(200, json.dumps(result).replace("{base}", base).encode())
        if url.path == "/w/api.php":
            if "titles" in query:
                return self.fixture("commons-file.json") if query["titles"][0] == "File:Chelsea the cat.png" \
                    else self.answer(200, json.dumps({"batchcomplete": True, "query": {"pages": [
                        {"ns": 6, "title": query["titles"][0], "missing": True}]}}).encode())
            if words == "nothing":
                return self.answer(200, b'{"batchcomplete": true}')
            return self.fixture("commons-search.json")
        if url.path == "/pictures/chelsea.png" or url.path.endswith("/thumb/") or url.path.startswith("/commons/thumb/"):
            if url.path != "/pictures/chelsea.png":
                Providers.thumbnails_sent += 1
            return self.answer(200, PICTURE, "image/png")
        if url.path == "/museum/object/77":
            return self.answer(200, b"<!doctype html><html><body>Object 77</body></html>", "text/html")
        self.answer(404, b'{"detail": "Not found."}')


@pytest.fixture(scope="module")
def providers():
    with local_site(Providers) as base:
        yield {"MEMERY_OPENVERSE_URL": base, "MEMERY_COMMONS_URL": base}


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def memery(store, *arguments, env):
    return subprocess.run([BINARY, *arguments, "--store", str(store)], capture_output=True, text=True, timeout=90,
                          env={**os.environ, **env})


def test_both_providers_answer_with_credits_and_a_video_is_left_out(providers, tmp_path):
    found = memery(tmp_path, "search", "--web", "cats", env=providers)
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines()[:3] == [
        "Openverse: 2 pictures",
        "  openverse:0d3c8e1a-5b7f-4e2a-9c61-2f4b8a9d7e10  “Grumpy cat on a sofa” by Jane Doe  CC BY-SA 2.0  451x300",
        f"      {providers['MEMERY_OPENVERSE_URL']}/flickr/photos/jane/1234",
    ], found.stdout
    assert "Wikimedia Commons: 1 picture\n" in found.stdout
    assert "  commons:File:Chelsea the cat.png  “Chelsea the cat” by Stefan van der Walt & friends  CC BY 4.0  451x300" in found.stdout
    assert "webm" not in found.stdout and "Cat playing" not in found.stdout
    shaped = json.loads(memery(tmp_path, "search", "--web", "cats", "--json", env=providers).stdout)
    assert [o["provider"] for o in shaped["web"]] == ["openverse", "commons"]
    assert shaped["web"][1]["images"][0]["licenceURL"] == "https://creativecommons.org/licenses/by/4.0"


def test_a_result_becomes_a_creation_that_keeps_and_gives_its_credits(providers, tmp_path):
    made = memery(tmp_path, "new", "grumpy", "--from-web", "openverse:0d3c8e1a-5b7f-4e2a-9c61-2f4b8a9d7e10", env=providers)
    assert made.returncode == 0, made.stderr
    base = providers["MEMERY_OPENVERSE_URL"]
    shown = memery(tmp_path, "show", "grumpy", env=providers).stdout
    assert f"from:    {base}/pictures/chelsea.png\n" in shown, shown
    assert f"credit:  “Grumpy cat on a sofa” by Jane Doe, CC BY-SA 2.0, {base}/flickr/photos/jane/1234\n" in shown, shown
    added = memery(tmp_path, "image", "add", "grumpy", "--from-web", "commons:File:Chelsea the cat.png", "--scale", "0.3", env=providers)
    assert added.returncode == 0, added.stderr

    exported = memery(tmp_path, "export", "grumpy", "-o", str(tmp_path / "g.png"), "--credits", "file", env=providers)
    assert exported.returncode == 0, exported.stderr
    assert (tmp_path / "g.png.credits.txt").read_text() == (
        f"“Grumpy cat on a sofa” by Jane Doe, CC BY-SA 2.0, {base}/flickr/photos/jane/1234\n"
        f"“Chelsea the cat” by Stefan van der Walt & friends, CC BY 4.0, {base}/wiki/File:Chelsea_the_cat.png\n")

    from PIL import Image
    plain = memery(tmp_path, "export", "grumpy", "-o", str(tmp_path / "plain.png"), env=providers)
    captioned = memery(tmp_path, "export", "grumpy", "-o", str(tmp_path / "credited.png"), "--credits", "caption", env=providers)
    assert plain.returncode == 0 and captioned.returncode == 0, captioned.stderr
    with Image.open(tmp_path / "plain.png") as a, Image.open(tmp_path / "credited.png") as b:
        assert b.width == a.width and b.height == a.height + 28, (a.size, b.size)
        band = b.convert("RGB").crop((0, a.height, b.width, b.height)).tobytes()
        light = sum(1 for i in range(0, len(band), 3) if band[i] + band[i + 1] + band[i + 2] > 600)
        assert 30 < light < len(band) // 9, light   # white letters on black
        assert b.convert("RGB").crop((0, 0, a.width, a.height)).tobytes() == a.convert("RGB").tobytes()
    # The export alone had the line: the creation is as it was.
    assert memery(tmp_path, "show", "grumpy", "--json", env=providers).stdout.count('"kind"') == 1


@pytest.mark.parametrize("words, env, expected", [
    ("nothing", {}, ["Openverse: Openverse found no pictures for “nothing”", "Wikimedia Commons: Wikimedia Commons found no pictures for “nothing”"]),
    ("garbled", {}, ["Openverse: Openverse answered in a form Memery does not understand"]),
    ("cats", {"MEMERY_OPENVERSE_URL": "http://127.0.0.1:{closed}"},
     ["Openverse: could not reach Openverse: could not download http://127.0.0.1:{closed}/v1/images/?q=cats"]),
    ("slow", {"MEMERY_DOWNLOAD_SECONDS": "2"}, ["Openverse: Openverse did not answer within 2 s; try again later",
                                               "Wikimedia Commons: Wikimedia Commons did not answer within 2 s; try again later"]),
])
def test_each_provider_failure_has_its_message_and_the_other_still_shows(providers, tmp_path, words, env, expected):
    closed = str(closed_port())
    env = {k: v.replace("{closed}", closed) for k, v in {**providers, **env}.items()}
    found = memery(tmp_path, "search", "--web", words, env=env)
    for line in expected:
        assert line.replace("{closed}", closed) in found.stdout + found.stderr, found.stdout + found.stderr
    if words in ("garbled", "cats"):
        assert found.returncode == 0 and "Wikimedia Commons: 1 picture" in found.stdout, found.stdout
    if words == "slow":
        assert found.returncode == 1 and "no picture site answered" in found.stderr, found.stderr
    if words == "nothing":  # both answered: matching nothing is not a failure
        assert found.returncode == 0, found.stderr


@pytest.mark.parametrize("reference, words", [
    ("openverse:7a1e4c22-9f0b-4d5e-8b3a-61c2d0e9f4aa", "/museum/object/77 is a web page (HTML), not a picture"),
    ("commons:File:Gone.png", "commons:File:Gone.png is not a picture its site knows (any more): search again"),
    ("openverse:../../admin", "openverse:../../admin is not a picture its site knows (any more)"),
    ("flickr:123", "\"flickr:123\" is not a web search result: give one as `memery search --web` prints it (openverse:…, commons:…)"),
])
def test_a_result_that_gives_no_picture_is_refused_and_nothing_is_stored(providers, tmp_path, reference, words):
    refused = memery(tmp_path, "new", "x", "--from-web", reference, env=providers)
    assert refused.returncode == 1 and words in refused.stderr, refused.stderr
    assert "x" not in memery(tmp_path, "list", env=providers).stdout.split()


# The editor's "From the web", on a phone: results with thumbnails and credits, one taken.
def test_the_page_searches_the_web_and_starts_a_creation_with_credits(providers, tmp_path):
    from selenium.webdriver.common.by import By
    from conftest import Server
    from test_editor import SHOTS, more_sources, wait
    from test_editor_layout import chromium

    server = Server(str(tmp_path / "store"), env={**os.environ, **providers})
    driver = chromium(phone=True)
    try:
        driver.get(server.url)
        wait(driver, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
        more_sources(driver)
        driver.find_element(By.ID, "web-search").send_keys("cats")
        driver.find_element(By.CSS_SELECTOR, "#web-search-form button[type=submit]").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#web-results .web-card")) == 3, what="three cards")
        notes = [n.text for n in driver.find_elements(By.CSS_SELECTOR, "#web-results .web-note")]
        assert notes == ["Openverse: 2 pictures", "Wikimedia Commons: 1 picture"], notes
        wait(driver, lambda d: d.execute_script(
            "return [...document.querySelectorAll('#web-results img')].every((i) => i.complete && i.naturalWidth > 0)"),
             what="the thumbnails, through the server")
        first = driver.find_elements(By.CSS_SELECTOR, "#web-results .web-card")[0]
        assert "Grumpy cat on a sofa" in first.text and "by Jane Doe, CC BY-SA 2.0" in first.text, first.text
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / "from-the-web-phone.png"))
        from axe_selenium_python import Axe
        from test_editor_layout import SMALL
        axe = Axe(driver)
        axe.inject()
        serious = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
        assert serious == [], serious
        assert driver.execute_script(SMALL) == [], "controls under 44x44 on a phone"
        take = first.find_element(By.CSS_SELECTOR, "button.take")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", take)
        take.click()
        wait(driver, lambda d: d.find_element(By.ID, "editor-view").is_displayed(), what="the editor on the new creation")
        name = driver.execute_script("return decodeURIComponent(location.hash.split('/').pop())")
        shown = server.memery("show", name)
        assert "credit:  “Grumpy cat on a sofa” by Jane Doe, CC BY-SA 2.0," in shown.stdout, shown.stdout
        # Only thumbnails a search gave can be fetched: a made-up number is 404, a URL is not taken.
        assert server.request("GET", "/api/web/thumbnails/999999")[0] == 404
        assert server.request("GET", "/api/web/thumbnails/http%3A%2F%2F127.0.0.1%2F")[0] == 404
    finally:
        driver.quit()
        server.stop()


def test_a_thumbnail_is_fetched_from_the_provider_once(providers, tmp_path):
    from conftest import Server
    server = Server(str(tmp_path / "store"), env={**os.environ, **providers})
    try:
        def thumbnails():
            status, found = server.json("GET", "/api/web/search?q=cats")
            assert status == 200, found
            return [image["thumbnail"] for outcome in found["web"] for image in outcome["images"]]
        first = thumbnails()
        before = Providers.thumbnails_sent
        for path in first:
            status, headers, body = server.request("GET", path)
            assert status == 200 and headers["Content-Type"] == "image/png" and body == PICTURE
        assert Providers.thumbnails_sent - before == len(first) == 3
        # Searching again gives new numbers for the same thumbnails: none is asked for again.
        for path in thumbnails():
            assert server.request("GET", path)[0] == 200
        assert Providers.thumbnails_sent - before == 3
    finally:
        server.stop()
