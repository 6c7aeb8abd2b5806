"""Two hubs serving the editor behind Caddy over https (issue 35 §2): Caddy's `tls internal`
certificate (no certificate authority can be reached from here, so the browser is told to
accept it), the Caddyfile the repository ships with its site and ports swapped for
loopback ones. A phone signs up through the proxy (the cookie Secure and __Host-), makes a
meme, and keeps editing when the hub it was sent to is killed: any hub serves anyone."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ROOT, free_port, hub_process, running_hub
from test_editor import DRIVER, SHOTS, wait
from test_editor_layout import PHONE
from test_hub_editor import PASSWORD, sign_in_form

CADDY = shutil.which("caddy")


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
