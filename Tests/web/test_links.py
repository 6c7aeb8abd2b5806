"""Pictures from a link, as a person takes them with the CLI: `memery new --url`, `image add
--url`, `garage add --url`, against a local HTTP server that serves pictures, pages,
redirects and failures. (The checks on where a link may lead are Tests/MemeryWebTests.)"""
import http.server
import json
import os
import subprocess
import time

import pytest

from conftest import BINARY, EXAMPLE, local_site

PICTURE = EXAMPLE.read_bytes()


class Site(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if not any(name == "Content-Length" for name, _ in headers):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/pictures/chelsea.png":
            self.send(200, PICTURE, [("Content-Type", "image/png")])
        elif self.path == "/share?id=42":
            self.send(302, headers=[("Location", "/pictures/chelsea.png")])
        elif self.path == "/photo-page":
            self.send(200, b"<!DOCTYPE html>\n<html><head><title>A cat</title></head><body><img src=x></body></html>",
                      [("Content-Type", "image/jpeg")])
        elif self.path == "/noise.jpg":
            self.send(200, bytes(range(256)) * 40, [("Content-Type", "image/jpeg")])
        elif self.path == "/huge.png":
            self.send(200, b"\x89PNG" + b"\0" * (2 * 1048576), [("Content-Type", "image/png")])
        elif self.path == "/slow.png":
            time.sleep(8)
            self.send(200, PICTURE)
        else:
            self.send(404, b"no such thing")


@pytest.fixture(scope="module")
def site():
    with local_site(Site) as address:
        yield address


def memery(store, *arguments, env=None):
    return subprocess.run([BINARY, *arguments, "--store", str(store)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


def test_a_picture_from_a_link_becomes_a_creation_that_remembers_the_link(site, tmp_path):
    made = memery(tmp_path, "new", "cat", "--url", f"{site}/share?id=42")
    assert made.returncode == 0, made.stderr
    shown = memery(tmp_path, "show", "cat")
    assert "image:   chelsea.png (png," in shown.stdout, shown.stdout
    assert f"from:    {site}/share?id=42\n" in shown.stdout, shown.stdout
    detail = json.loads(memery(tmp_path, "show", "cat", "--json").stdout)
    assert detail["baseImage"]["origin"]["url"] == f"{site}/share?id=42"
    exported = memery(tmp_path, "export", "cat", "-o", str(tmp_path / "cat.png"))
    assert exported.returncode == 0 and (tmp_path / "cat.png").read_bytes()[:4] == b"\x89PNG"


def test_a_layer_and_a_garage_image_from_links(site, tmp_path):
    assert memery(tmp_path, "new", "blank", "--canvas", "800x600").returncode == 0
    added = memery(tmp_path, "image", "add", "blank", "--url", f"{site}/pictures/chelsea.png")
    assert added.returncode == 0, added.stderr
    assert f"image chelsea.png 451x300 from {site}/pictures/chelsea.png" in memery(tmp_path, "show", "blank").stdout
    stored = memery(tmp_path, "garage", "add", "--url", f"{site}/pictures/chelsea.png", "--tag", "cat")
    assert stored.returncode == 0 and stored.stdout.strip() == "chelsea", stored.stderr
    listed = json.loads(memery(tmp_path, "garage", "list", "--json").stdout)
    assert listed[0]["image"]["origin"]["url"] == f"{site}/pictures/chelsea.png", listed


@pytest.mark.parametrize("path, extra, env, words", [
    ("/photo-page", [], {}, "/photo-page is a web page (HTML), not a picture: open it in a browser and copy the picture's own link"),
    ("/missing.png", [], {}, "the site answered 404 Not Found for {site}/missing.png: the picture is not there (any more)"),
    ("/huge.png", ["--max-download-mb", "1"], {}, "/huge.png is larger than 1 MB, the most Memery downloads (--max-download-mb to allow more)"),
    ("/slow.png", [], {"MEMERY_DOWNLOAD_SECONDS": "1"}, "/slow.png took longer than 1 s to download, so it was stopped"),
    ("/noise.jpg", [], {}, "noise.jpg"),
])
def test_a_link_that_gives_no_picture_is_refused_saying_why_and_nothing_is_stored(site, tmp_path, path, extra, env, words):
    refused = memery(tmp_path, "new", "cat", "--url", site + path, *extra, env=env)
    assert refused.returncode == 1, refused
    assert words.format(site=site) in refused.stderr, refused.stderr
    assert "cat" not in memery(tmp_path, "list").stdout


@pytest.mark.parametrize("link, words", [
    ("ftp://example.com/cat.jpg", "ftp://example.com/cat.jpg is a ftp: link; Memery downloads pictures over https:// or http:// only"),
    ("cat dot jpg", "\"cat dot jpg\" is not a link: give one starting with https:// or http://"),
    ("http://127.0.0.1:9/cat.png", "could not download http://127.0.0.1:9/cat.png: the site refused the connection"),
])
def test_links_that_cannot_be_downloaded_are_named(tmp_path, link, words):
    refused = memery(tmp_path, "new", "cat", "--url", link)
    assert refused.returncode == 1 and words in refused.stderr, refused.stderr


# The editor's "From a link", on a phone: a new creation from a link, and a download cancelled.
def test_the_page_takes_a_picture_from_a_link_and_cancel_stores_nothing(site, server):
    from selenium.webdriver.common.by import By
    from test_editor import SHOTS, more_sources, show, wait
    from test_editor_layout import chromium

    driver = chromium(phone=True)
    try:
        driver.get(server.url)
        wait(driver, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
        more_sources(driver)
        field = driver.find_element(By.ID, "link-url")
        field.send_keys(f"{site}/share?id=42")
        driver.find_element(By.CSS_SELECTOR, "#link-form button[type=submit]").click()
        wait(driver, lambda d: d.find_element(By.ID, "editor-view").is_displayed(), what="the editor on the new creation")
        name = driver.execute_script("return decodeURIComponent(location.hash.split('/').pop())")
        assert show(server, name)["baseImage"]["origin"]["url"] == f"{site}/share?id=42"
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / "from-a-link-phone.png"))

        driver.get(server.url)
        wait(driver, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
        images_before = server.json("GET", "/api/garage")[1]["images"]
        more_sources(driver)
        driver.find_element(By.ID, "link-url").send_keys(f"{site}/slow.png")
        driver.find_element(By.CSS_SELECTOR, "#link-form button[type=submit]").click()
        cancel = driver.find_element(By.CSS_SELECTOR, "#link-form button.cancel")
        wait(driver, lambda d: cancel.is_displayed(), what="the Cancel button")
        cancel.click()
        wait(driver, lambda d: d.find_element(By.ID, "status").text == "Download cancelled: nothing was added.", what="the cancel said")
        # The slow site answers after 8 s: by then the server has dropped the download.
        time.sleep(9)
        assert server.json("GET", "/api/garage")[1]["images"] == images_before
        assert not cancel.is_displayed()
    finally:
        driver.quit()


def test_a_server_others_reach_refuses_links_into_its_own_network_unless_told(site, tmp_path):
    from conftest import Server

    def garage_from(server, link):
        return server.json("POST", "/api/garage", {"url": link})

    # Listening beyond loopback: the picture site on 127.0.0.1 is this machine's own network.
    guarded = Server(str(tmp_path / "guarded"), extra=["--host", "0.0.0.0", "--allow-remote", "--port", "0"])
    try:
        status, answer = garage_from(guarded, f"{site}/pictures/chelsea.png")
        assert status == 422, answer
        assert answer["error"].startswith("127.0.0.1 is an address inside this machine's own network"), answer
        assert "--allow-private-urls" in answer["error"]
        assert guarded.json("GET", "/api/garage")[1]["images"] == []
    finally:
        guarded.stop()
    trusting = Server(str(tmp_path / "trusting"), extra=["--host", "0.0.0.0", "--allow-remote", "--allow-private-urls", "--port", "0"])
    try:
        status, answer = garage_from(trusting, f"{site}/pictures/chelsea.png")
        assert status == 201 and answer["image"]["origin"]["url"] == f"{site}/pictures/chelsea.png", answer
    finally:
        trusting.stop()


# `memery apply`: a line's "url" is downloaded as `--url` is; the editor's edits endpoint
# refuses one (the page takes links through POST /api/garage, which a closed page cancels).
def test_apply_takes_pictures_from_links_and_says_which_line_gave_no_picture(site, tmp_path):
    lines = "\n".join(json.dumps(line) for line in [
        {"op": "new", "creation": "linked", "url": f"{site}/share?id=42"},
        {"op": "image add", "creation": "linked", "url": f"{site}/pictures/chelsea.png", "scale": 0.25},
        {"op": "garage add", "url": f"{site}/pictures/chelsea.png", "name": "cat"},
        {"op": "image add", "creation": "linked", "url": f"{site}/photo-page"},
    ]) + "\n"
    applied = subprocess.run([BINARY, "apply", "--store", str(tmp_path)], input=lines, capture_output=True, text=True, timeout=60)
    answers = [json.loads(line) for line in applied.stdout.splitlines()]
    assert applied.returncode == 1 and [answer["ok"] for answer in answers] == [True, True, True, False], applied.stdout
    assert answers[1]["layer"] == "L1" and answers[2]["image"] == "cat"
    assert answers[3]["line"] == 4 and "is a web page (HTML), not a picture" in answers[3]["error"], answers[3]
    shown = json.loads(memery(tmp_path, "show", "linked", "--json").stdout)
    assert shown["baseImage"]["origin"]["url"] == f"{site}/share?id=42"
    assert shown["layers"][0]["image"]["origin"]["url"] == f"{site}/pictures/chelsea.png"


def test_the_editors_edits_endpoint_sends_links_to_the_garage(server):
    status, answer = server.json("POST", "/api/creations/anything/edits", {"op": "image add", "url": "https://example.org/hat.png"})
    assert status == 400 and "POST /api/garage" in answer["error"], answer
