"""Two hubs serving the editor behind Caddy over https (issue 35 §2): Caddy's `tls internal`
certificate (no certificate authority can be reached from here, so the browser is told to
accept it), the Caddyfile the repository ships with its site and ports swapped for
loopback ones. A phone signs up through the proxy (the cookie Secure and __Host-), makes a
meme, and keeps editing when the hub it was sent to is killed: any hub serves anyone."""
import http.client
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import tempfile
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ROOT, free_port, hub_process, hub_started, running_hub, throwaway_postgres
from test_editor import DRIVER, SHOTS, more_sources, wait
from test_editor_layout import PHONE
from test_hub_editor import PASSWORD, sign_in_form

CADDY = shutil.which("caddy")
HAPROXY = shutil.which("haproxy")
OPENSSL = shutil.which("openssl")


def caddyfile(site, ports):
    """packaging/Caddyfile with its site and hubs swapped for loopback ones, a certificate of
    Caddy's own, and nothing of Caddy's kept outside the test's folder."""
    shipped = (ROOT / "packaging" / "Caddyfile").read_text()
    body = shipped.replace("memes.example.org {", f"{site} {{\n\ttls internal", 1)
    body = body.replace("127.0.0.1:8470 127.0.0.1:8471", " ".join(f"127.0.0.1:{p}" for p in ports))
    return "{\n\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n}\n" + body


@pytest.mark.skipif(CADDY is None, reason="Debian's caddy is absent (scripts/bootstrap installs it)")
def test_two_hubs_behind_caddy_over_https_serve_one_person_whichever_is_up():
    folder = tempfile.mkdtemp(prefix="memery-caddy-")
    port = free_port()
    site = f"https://localhost:{port}"
    caddy = None
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--ignore-certificate-errors"]:
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", PHONE)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = None
    try:
        common = ["--public-url", site, "--trusted-proxy", "127.0.0.1"]
        with running_hub(*common, "--cache-dir", os.path.join(folder, "one")) as (first, database):
            with hub_process(database, *common, "--cache-dir", os.path.join(folder, "two")) as second:
                ports = [int(re.search(r":(\d+)$", hub).group(1)) for hub in (first, second)]
                config = os.path.join(folder, "Caddyfile")
                with open(config, "w") as file:
                    file.write(caddyfile(f"localhost:{port}", ports))
                env = dict(os.environ, XDG_DATA_HOME=os.path.join(folder, "data"), XDG_CONFIG_HOME=os.path.join(folder, "config"), HOME=folder)
                caddy = subprocess.Popen([CADDY, "run", "--config", config, "--adapter", "caddyfile"], env=env,
                                         stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "caddy.log"), "w"))
                deadline = time.time() + 30
                driver = webdriver.Chrome(service=Service(DRIVER), options=options)
                while True:
                    try:
                        driver.get(site + "/")
                        if driver.find_elements(By.ID, "signup-form"):
                            break
                    except Exception:
                        pass
                    assert time.time() < deadline, open(os.path.join(folder, "caddy.log")).read()[-3000:]
                    time.sleep(0.5)

                sign_in_form(driver, "signup", "pia")
                cookie = next(c for c in driver.get_cookies() if "memery-session" in c["name"])
                assert cookie["name"] == "__Host-memery-session" and cookie["secure"] and cookie["httpOnly"], cookie
                more_sources(driver)
                driver.find_element(By.CSS_SELECTOR, "#blank-form button[type=submit]").click()
                wait(driver, lambda d: d.find_element(By.ID, "editor-view").is_displayed(), what="the editor")
                driver.find_element(By.ID, "top-caption").send_keys("through caddy", Keys.ENTER)
                token = cookie["value"]

                def texts(hub):
                    request = urllib.request.Request(hub + "/api/creations", headers={"Authorization": f"Bearer {token}"})
                    names = [c["name"] for c in json.loads(urllib.request.urlopen(request).read())["creations"]]
                    request = urllib.request.Request(f"{hub}/api/creations/{names[0]}", headers={"Authorization": f"Bearer {token}"})
                    return [l.get("text") for l in json.loads(urllib.request.urlopen(request).read())["layers"]]
                # Caddy keeps the page on one hub: only that one has a working copy of the person.
                assert any(c["name"] == "memery_hub" for c in driver.get_cookies()), "Caddy's cookie"
                copies = {name: os.listdir(os.path.join(folder, name, "copies")) for name in ("one", "two")}
                assert [name for name in copies if copies[name]] in (["one"], ["two"]), copies
                served = "one" if copies["one"] else "two"
                other = second if served == "one" else first
                wait(driver, lambda d: "through caddy" in texts(other), what="the caption on the other hub")

                # The hub this browser was sent to goes away: the other serves it, every edit there.
                assert subprocess.run(["pkill", "-9", "-f", "--", f"cache-dir {folder}/{served}"]).returncode == 0
                # Caddy's health check (every 5 s) takes the dead hub out; the page's requests then reach the other.
                wait(driver, lambda d: all(d.execute_async_script(
                    "const done = arguments[0]; fetch('/api/creations').then(r => done(r.status)).catch(() => done(0))") == 200
                    for _ in range(3)), timeout=30, what="the page answered by the hub still up")
                driver.find_element(By.ID, "bottom-caption").send_keys("still here", Keys.ENTER)
                wait(driver, lambda d: "still here" in texts(other), timeout=30, what="the edit made after a hub went away")
                driver.save_screenshot(str(SHOTS / "hub-behind-caddy-phone.png"))
    finally:
        if driver:
            driver.quit()
        if caddy:
            caddy.kill()
            caddy.wait()
        shutil.rmtree(folder, ignore_errors=True)


def haproxy_cfg(port, pem, ports):
    """packaging/haproxy.cfg with its https bind on a loopback port and a certificate made by
    the test, no plain http bind, and its two hubs swapped for loopback ones. Its log stays
    on standard output: the test reads which hub served each request there."""
    shipped = (ROOT / "packaging" / "haproxy.cfg").read_text()
    body, swaps = re.subn(r"(?m)^\tbind :443 ssl crt \S+$", f"\tbind 127.0.0.1:{port} ssl crt {pem}", shipped)
    assert swaps == 1, "packaging/haproxy.cfg's https bind line moved: the test swaps it"
    body, swaps = re.subn(r"(?m)^\tbind :80\n", "", body)
    assert swaps == 1, "packaging/haproxy.cfg's http bind line moved: the test drops it"
    for name, hub_port in zip(("hub1", "hub2"), ports):
        body, swaps = re.subn(rf"(?m)^(\tserver {name}) 127\.0\.0\.1:\d+ ", rf"\1 127.0.0.1:{hub_port} ", body)
        assert swaps == 1, f"packaging/haproxy.cfg's server {name} line moved: the test swaps it"
    return body


class Through:
    """Requests to https://localhost:PORT as a browser there sends them, on 127.0.0.1 (the
    certificate is the test's own: not verified)."""

    def __init__(self, port):
        self.port, self.site = port, f"https://localhost:{port}"
        self.context = ssl.create_default_context()
        self.context.check_hostname = False
        self.context.verify_mode = ssl.CERT_NONE
        self.cookie = None

    def request(self, method, path, body=None, content_type="application/json", origin=None):
        """(status, headers, parsed JSON or bytes); raises OSError when HAProxy does not answer."""
        headers = {"Host": f"localhost:{self.port}"}
        if method not in ("GET", "HEAD"):
            headers["Origin"] = origin or self.site
        if self.cookie:
            headers["Cookie"] = self.cookie
        if body is not None:
            headers["Content-Type"] = content_type
            body = body if isinstance(body, bytes) else json.dumps(body).encode()
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=60, context=self.context)
        try:
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            data = answer.read()
        finally:
            connection.close()
        try:
            data = json.loads(data)
        except ValueError:
            pass
        return answer.status, answer.headers, data


def read(path):
    with open(path) as file:
        return file.read()


def logged(log_path):
    """(hub, method, path) of each request in HAProxy's log, in the order they ended: the hub
    (hub1 or hub2) is the one HAProxy sent it to."""
    return [m.groups() for m in re.finditer(r'^\S+ \[[^]]+\] memery~ hubs/(\S+) .*? "(\w+) (\S+) HTTP/', read(log_path), re.M)]


def served_by(log_path, count, deadline):
    """logged(log_path) once it has `count` requests (HAProxy logs a request as it ends)."""
    while len(lines := logged(log_path)) < count:
        assert time.time() < deadline, f"HAProxy logged {len(lines)} requests, not {count}: {lines}"
        time.sleep(0.1)
    return lines


@pytest.mark.skipif(HAPROXY is None, reason="Debian's haproxy is absent (scripts/bootstrap installs it)")
@pytest.mark.skipif(OPENSSL is None, reason="openssl is absent (it makes the test's certificate)")
def test_two_hubs_behind_haproxy_keep_a_person_on_one_hub_by_the_cookies_hash_and_survive_its_loss():
    folder = tempfile.mkdtemp(prefix="memery-haproxy-")
    port = free_port()
    site = f"https://localhost:{port}"
    proxy = None
    try:
        key, cert, pem = (os.path.join(folder, name) for name in ("key.pem", "cert.pem", "site.pem"))
        made = subprocess.run([OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                               "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"], capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
        with open(pem, "w") as file:
            file.write(read(cert) + read(key))  # HAProxy takes the certificate and its key in one file

        common = ["--public-url", site, "--trusted-proxy", "127.0.0.1"]
        with throwaway_postgres() as database, \
                hub_started(database, *common, "--cache-dir", os.path.join(folder, "hub1")) as (first, first_process), \
                hub_started(database, *common, "--cache-dir", os.path.join(folder, "hub2")) as (second, second_process):
            hubs = {"hub1": (first, first_process), "hub2": (second, second_process)}
            config = os.path.join(folder, "haproxy.cfg")
            with open(config, "w") as file:
                file.write(haproxy_cfg(port, pem, [int(re.search(r":(\d+)$", hub).group(1)) for hub, _ in hubs.values()]))
            checked = subprocess.run([HAPROXY, "-c", "-f", config], capture_output=True, text=True)
            assert checked.returncode == 0, checked.stdout + checked.stderr
            log = os.path.join(folder, "haproxy.log")
            with open(log, "w") as file:
                proxy = subprocess.Popen([HAPROXY, "-db", "-f", config], stdout=file, stderr=subprocess.STDOUT)
            page = Through(port)
            deadline = time.time() + 30
            while True:
                try:
                    if page.request("GET", "/healthz")[0] == 200:
                        break
                except OSError:
                    pass
                assert time.time() < deadline and proxy.poll() is None, read(log)[-3000:]
                time.sleep(0.2)

            # (a) Sign up and in through HAProxy: over https the cookie is __Host- and Secure.
            status, _, body = page.request("POST", "/v1/accounts", {"user": "hana", "password": PASSWORD})
            assert status == 201, body
            status, headers, body = page.request("POST", "/v1/browser/session", {"user": "hana", "password": PASSWORD})
            assert status == 201, body
            set_cookie = headers["Set-Cookie"]
            attributes = [part.strip().lower() for part in set_cookie.split(";")[1:]]
            assert set_cookie.startswith("__Host-memery-session="), set_cookie
            assert {"secure", "httponly", "path=/", "samesite=strict"} <= set(attributes), set_cookie
            assert not any(a.startswith("domain=") for a in attributes), set_cookie
            page.cookie = set_cookie.split(";")[0]
            # The plain cookie is nobody's over https: only the __Host- one is read.
            plain = Through(port)
            plain.cookie = "memery-session=" + page.cookie.split("=", 1)[1]
            assert plain.request("GET", "/api/creations")[0] == 401
            # The page's origin is the proxy's: a change from another site is refused.
            status, _, body = page.request("POST", "/api/creations?name=cat&filename=chelsea.png",
                                           (ROOT / "examples" / "chelsea.png").read_bytes(), "image/png", origin="https://elsewhere.example")
            assert status == 403, body
            status, _, body = page.request("POST", "/api/creations?name=cat&filename=chelsea.png",
                                           (ROOT / "examples" / "chelsea.png").read_bytes(), "image/png")
            assert status == 201, body

            # (b) Every request with the cookie goes to one hub, the hash of the cookie's: only
            # its cache folder holds the person's working copy, and HAProxy's log names it.
            before = len(logged(log))
            acknowledged = []
            for n in range(12):
                status, _, body = page.request("POST", "/api/creations/cat/edits", {"op": "text add", "text": f"before {n}", "caps": False})
                assert status == 200, body
                acknowledged.append(f"before {n}")
                assert page.request("GET", "/api/creations/cat")[0] == 200
            requests = served_by(log, before + 24, time.time() + 30)[before:]
            servers = {server for server, _, _ in requests}
            assert len(servers) == 1 and servers <= set(hubs), requests
            served = servers.pop()
            other = "hub2" if served == "hub1" else "hub1"
            copies = {name: os.listdir(os.path.join(folder, name, "copies")) for name in hubs}
            assert copies[served] and not copies[other], copies

            # (c) The hub that holds the copy dies. The person's next edit, sent before HAProxy's
            # check of /healthz has noticed, is tried on the dead hub and then redispatched to the
            # other: no error reaches the page. Once the check marks the hub down, the person's
            # requests go to the other hub at once; every edit made before is there.
            os.kill(hubs[served][1].pid, signal.SIGKILL)
            hubs[served][1].wait()
            status, _, body = page.request("POST", "/api/creations/cat/edits", {"op": "text add", "text": "after the kill", "caps": False})
            assert status == 200, (status, body)
            acknowledged.append("after the kill")
            deadline = time.time() + 30
            while not re.search(rf"Server hubs/{served} is DOWN", read(log)):
                assert time.time() < deadline, read(log)[-3000:]
                time.sleep(0.2)
            status, _, body = page.request("POST", "/api/creations/cat/edits", {"op": "text add", "text": "once it is down", "caps": False})
            assert status == 200, (status, body)
            acknowledged.append("once it is down")
            status, _, body = page.request("GET", "/api/creations/cat")
            assert status == 200, body
            kept = {layer["text"] for layer in body["layers"] if layer.get("kind") == "text"}
            assert set(acknowledged) <= kept, sorted(set(acknowledged) - kept)
            assert os.listdir(os.path.join(folder, other, "copies")), "the other hub holds the copy now"
            edits = [server for server, method, path in served_by(log, before + 27, time.time() + 30)[before:] if path.endswith("/edits")]
            assert edits == [served] * 12 + [other] * 2, edits
    finally:
        if proxy:
            proxy.kill()
            proxy.wait()
        shutil.rmtree(folder, ignore_errors=True)
