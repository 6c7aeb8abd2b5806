"""The editor connected to a hub, in a real browser: the week's recommendations (a
manager reorders, takes down and recommends from the editor), a search of the hub's
library in the new-creation area, and Share, which puts a public link on the hub."""
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import reveal, BINARY, EDGE, EXAMPLE, Server, running_hub
from test_editor import SHOTS, chromium, wait

PASSWORD = "correct horse"


def cli(store, *args, stdin=None):
    run = subprocess.run([BINARY, *args, "--store", store], capture_output=True, text=True, input=stdin, timeout=120)
    assert run.returncode == 0, f"memery {' '.join(args)}: {run.stdout} {run.stderr}"
    return run.stdout


@pytest.fixture(scope="module")
def setup():
    """A hub with a manager's store serving the editor, two recommendations this week."""
    with running_hub() as (hub, database):
        folder = tempfile.mkdtemp(prefix="memery-webhub-")
        store = os.path.join(folder, "store")
        cli(store, "account", "signup", hub, "--user", "boss", "--password-stdin", stdin=PASSWORD + "\n")
        assert subprocess.run([BINARY, "hub", "grant-manager", "boss", "--database", database], capture_output=True).returncode == 0
        cli(store, "login", hub, "--user", "boss", "--password-stdin", stdin=PASSWORD + "\n")  # the role is read at login
        cli(store, "recommend", "add", str(EXAMPLE), "--title", "Grumpy cat", "--tag", "cat")
        cli(store, "new", "wow", "--canvas", "320x200", "--background", "navy")
        cli(store, "text", "wow", "--top", "SUCH WOW")
        cli(store, "recommend", "add", "wow", "--title", "Such wow", "--tag", "doge")
        server = Server(store)
        driver = chromium()
        driver.get(server.url)
        SHOTS.mkdir(parents=True, exist_ok=True)
        try:
            yield hub, server, driver, store
        finally:
            driver.quit()
            server.stop()
            shutil.rmtree(folder, ignore_errors=True)


def titles(driver, list_id):
    """Read in one script: the list may be drawn anew between two WebDriver calls."""
    return driver.execute_script(f"return [...document.querySelectorAll('#{list_id} .hub-card .title')].map(e => e.textContent)")


def click(driver, css):
    """Clicks the element once the list has settled (a redrawn list makes elements stale)."""
    wait(driver, lambda d: d.execute_script("const e = document.querySelector(arguments[0]); if (!e) return false; setTimeout(() => e.click()); return true", css),
         what=css)


def recommended(store):
    return [item["title"] for item in json.loads(cli(store, "recommended", "--json"))["items"]]


def test_a_store_not_logged_in_shows_no_hub(server):
    status, answer = server.json("GET", "/api/hub")
    assert status == 200 and answer == {"connected": False}
    status, answer = server.json("GET", "/api/hub/recommended")
    assert status == 409 and "memery login" in answer["error"]


def test_the_week_is_shown_reordered_and_taken_down_by_a_manager(setup):
    hub, server, driver, store = setup
    wait(driver, lambda d: titles(d, "recommended-list") == ["Grumpy cat", "Such wow"], what="the week's recommendations")
    wait(driver, lambda d: all(d.execute_script("return [...document.querySelectorAll('#recommended-list img')].every(i => i.complete && i.naturalWidth > 0)")
                               for _ in [0]), what="their pictures")
    driver.save_screenshot(str(SHOTS / "hub-recommended.png"))
    # ↓ on the first puts it second, on the hub.
    click(driver, "#recommended-list .hub-card:first-child button[aria-label='Later in the week']")
    wait(driver, lambda d: titles(d, "recommended-list") == ["Such wow", "Grumpy cat"], what="the new order")
    assert recommended(store) == ["Such wow", "Grumpy cat"]

    # A picture this browser cannot show is left out, and the page says so.
    broken = (EDGE / "broken.png")
    if broken.exists():
        data = broken.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        token = json.load(open(os.path.join(store, "hub", "login.json")))["token"]
        auth = {"Authorization": f"Bearer {token}"}
        urllib.request.urlopen(urllib.request.Request(f"{hub}/v1/blobs/{digest}", data=data, method="PUT", headers=auth))
        body = json.dumps({"title": "Broken", "tags": [], "hash": digest, "contentType": "image/png", "width": 9, "height": 9}).encode()
        urllib.request.urlopen(urllib.request.Request(f"{hub}/v1/recommendations", data=body, method="POST",
                                                      headers={**auth, "Content-Type": "application/json"}))
        driver.execute_script("location.hash = '#/creation/wow'")
        driver.execute_script("location.hash = ''")
        wait(driver, lambda d: "skipped “Broken”" in d.find_element(By.ID, "status").text, what="the note about the broken picture")
        assert titles(driver, "recommended-list") == ["Such wow", "Grumpy cat"]

    # Remove asks first, then takes it down on the hub.
    click(driver, "#recommended-list .hub-card:last-child button[aria-label='Take “Grumpy cat” down']")
    wait(driver, lambda d: d.switch_to.alert, what="the confirmation").accept()
    wait(driver, lambda d: "Grumpy cat" not in titles(d, "recommended-list"), what="the entry gone")
    assert "Grumpy cat" not in recommended(store)


def test_search_in_the_new_creation_area_starts_a_creation(setup):
    hub, server, driver, store = setup
    driver.execute_script("location.hash = ''")
    field = wait(driver, lambda d: d.find_element(By.ID, "hub-search") if d.find_element(By.ID, "hub-search").is_displayed() else None,
                 what="the hub's search")
    field.clear()
    field.send_keys("zebra", Keys.ENTER)
    wait(driver, lambda d: "Nothing in the hub's library matches" in d.find_element(By.ID, "hub-results").text, what="no results")
    field.clear()
    field.send_keys("wow", Keys.ENTER)
    wait(driver, lambda d: titles(d, "hub-results") == ["Such wow"], what="the search's result")
    driver.save_screenshot(str(SHOTS / "hub-search.png"))
    click(driver, "#hub-results .hub-card button")
    wait(driver, lambda d: d.find_element(By.ID, "editor-view").is_displayed(), what="the editor")
    wait(driver, lambda d: d.find_element(By.ID, "creation-title").text == "Such wow", what="the new creation")
    shown = json.loads(cli(store, "show", "Such wow", "--json"))
    assert shown["width"] == 320 and shown["height"] == 200


def test_share_puts_a_public_link_on_the_hub_and_a_manager_recommends_from_the_editor(setup):
    hub, server, driver, store = setup
    driver.execute_script("location.hash = '#/creation/wow'")
    wait(driver, lambda d: d.find_element(By.ID, "creation-title").text == "wow", what="the creation")
    reveal(driver, "export-format")
    driver.find_element(By.ID, "export-format").send_keys("JPEG")
    driver.find_element(By.ID, "share").click()
    link = wait(driver, lambda d: d.find_element(By.ID, "share-link").get_attribute("href") if d.find_element(By.ID, "share-link").is_displayed() else None,
                what="the shared link")
    assert link.startswith(hub + "/s/") and link.endswith(".jpg"), link
    assert link in driver.find_element(By.ID, "status").text
    with urllib.request.urlopen(link) as answer:
        assert answer.status == 200 and answer.headers["Content-Type"] == "image/jpeg"
        assert answer.read()[:3] == b"\xff\xd8\xff"
    driver.save_screenshot(str(SHOTS / "hub-shared.png"))

    recommend = driver.find_element(By.ID, "recommend")
    assert recommend.is_displayed(), "a manager's editor offers Recommend"
    recommend.click()
    prompt = driver.switch_to.alert
    prompt.send_keys("Navy wow")
    prompt.accept()
    tags = driver.switch_to.alert
    tags.send_keys("navy doge")
    tags.accept()
    wait(driver, lambda d: "recommended in" in d.find_element(By.ID, "status").text, what="the recommendation")
    week = json.loads(cli(store, "recommended", "--json"))
    assert [(i["title"], i["tags"]) for i in week["items"]][-1] == ("Navy wow", ["navy", "doge"])
