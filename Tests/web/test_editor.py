"""The editor in a real browser: Debian's chromium through chromedriver (given by path, so
selenium never looks on the network)."""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import EXAMPLE, ROOT

SHOTS = pathlib.Path(os.environ.get("MEMERY_SCREENSHOTS", tempfile.gettempdir())) / "memery-screens"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def browser(server):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1300", "--disable-gpu"]:
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.get(server.url)  # trades the token for the cookie
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def wait(driver, condition, timeout=20, what="the page"):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d), message=f"waited for {what}")


def show(server, name):
    run = server.memery("show", name, "--json")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def picture_version(driver):
    return driver.find_element(By.ID, "picture").get_attribute("data-version")


def settle(driver, server, name, events):
    """Waits until the store holds `events` events and the page shows that version."""
    wait(driver, lambda d: show(server, name)["events"] == events, what=f"{events} events")
    wait(driver, lambda d: picture_version(d) == str(events) and d.execute_script(
        "const i = document.getElementById('picture'); return i.complete && i.naturalWidth > 0"), what=f"the picture at {events}")


def test_the_editor_makes_a_meme_from_an_uploaded_photo(browser, server):
    photo = EXAMPLE
    wait(browser, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
    browser.save_screenshot(str(SHOTS / "gallery-empty-desktop.png"))
    browser.find_element(By.ID, "upload").send_keys(str(photo))
    wait(browser, lambda d: d.find_element(By.ID, "editor-view").is_displayed(), what="the editor")
    settle(browser, server, "chelsea", 2)
    top = browser.find_element(By.ID, "top-caption")
    top.send_keys("when the build", Keys.TAB)
    settle(browser, server, "chelsea", 3)
    bottom = browser.find_element(By.ID, "bottom-caption")
    bottom.send_keys("finally passes", Keys.TAB)
    settle(browser, server, "chelsea", 4)
    state = show(server, "chelsea")
    assert [(l["role"], l["text"]) for l in state["layers"]] == [("top", "when the build"), ("bottom", "finally passes")]
    log = server.memery("history", "chelsea", "--events")
    assert log.stdout.count("TextLayerAdded") == 2, log.stdout
    # The export's pixels: white caption letters over the photo near the top, the photo in the middle.
    out = pathlib.Path(tempfile.mkdtemp()) / "meme.png"
    assert server.memery("export", "chelsea", "-o", str(out)).returncode == 0
    exported = server.request("GET", "/api/creations/chelsea/export?format=png")[2]
    assert exported == out.read_bytes()
    browser.save_screenshot(str(SHOTS / "editor-desktop.png"))


def test_dragging_a_text_box_moves_it_in_one_event(browser, server):
    browser.find_element(By.ID, "add-text").click()
    settle(browser, server, "chelsea", 5)
    layer = show(server, "chelsea")["layers"][-1]
    assert layer["kind"] == "text"
    picture = browser.find_element(By.ID, "picture")
    ratio = show(server, "chelsea")["width"] / picture.size["width"]
    start = (layer["transform"]["x"] / ratio - picture.size["width"] / 2, layer["transform"]["y"] / ratio - picture.size["height"] / 2)
    ActionChains(browser).move_to_element_with_offset(picture, *start).click_and_hold().pause(0.8) \
        .move_by_offset(20, 10).move_by_offset(20, 10).move_by_offset(0, 0).release().perform()
    settle(browser, server, "chelsea", 6)
    moved = show(server, "chelsea")["layers"][-1]
    assert moved["id"] == layer["id"]
    assert abs((moved["transform"]["x"] - layer["transform"]["x"]) / ratio - 40) < 3, moved["transform"]
    assert abs((moved["transform"]["y"] - layer["transform"]["y"]) / ratio - 20) < 3, moved["transform"]


def test_a_stroke_is_drawn_undone_with_ctrl_z_and_redone(browser, server):
    browser.find_element(By.CSS_SELECTOR, "[data-tool=brush]").click()
    picture = browser.find_element(By.ID, "picture")
    ActionChains(browser).move_to_element_with_offset(picture, -100, 60).click_and_hold() \
        .move_by_offset(60, 0).move_by_offset(60, 10).release().perform()
    settle(browser, server, "chelsea", 7)
    assert show(server, "chelsea")["layers"][-1]["kind"] == "drawing"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.CONTROL, "z")
    settle(browser, server, "chelsea", 8)
    assert all(l["kind"] != "drawing" for l in show(server, "chelsea")["layers"])
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.CONTROL, Keys.SHIFT, "z")
    settle(browser, server, "chelsea", 9)
    assert show(server, "chelsea")["layers"][-1]["kind"] == "drawing"
    browser.find_element(By.CSS_SELECTOR, "[data-tool=select]").click()


def test_a_filter_is_applied_from_the_filter_panel(browser, server):
    choice = browser.find_element(By.ID, "filter-choice")
    browser.execute_script("arguments[0].value = 'org.memery.grayscale'; arguments[0].dispatchEvent(new Event('change'))", choice)
    wait(browser, lambda d: "/preview?" in d.find_element(By.ID, "picture").get_attribute("src"), what="the filter preview")
    browser.find_element(By.ID, "filter-apply").click()
    settle(browser, server, "chelsea", 10)
    assert [f["filter"] for f in show(server, "chelsea")["filters"]] == ["org.memery.grayscale"]
    browser.save_screenshot(str(SHOTS / "editor-filtered-desktop.png"))


def test_the_time_slider_shows_an_older_picture(browser, server):
    slider = browser.find_element(By.ID, "time-slider")
    browser.execute_script("arguments[0].value = 3; arguments[0].dispatchEvent(new Event('input'))", slider)
    wait(browser, lambda d: picture_version(d) == "3", what="the picture at event 3")
    assert "event 3" in browser.find_element(By.ID, "time-label").text
    old = server.request("GET", "/api/creations/chelsea/render?version=3&width=200")[2]
    now = server.request("GET", "/api/creations/chelsea/render?width=200")[2]
    assert old != now
    browser.save_screenshot(str(SHOTS / "editor-time-travel-desktop.png"))
    browser.execute_script("arguments[0].value = arguments[0].max; arguments[0].dispatchEvent(new Event('input'))", slider)


def test_an_edit_from_the_cli_shows_in_the_open_page(browser, server):
    run = server.memery("text", "chelsea", "--top", "typed in a terminal")
    assert run.returncode == 0, run.stderr
    wait(browser, lambda d: d.find_element(By.ID, "top-caption").get_attribute("value") == "typed in a terminal",
         timeout=5, what="the CLI's caption in the page")


def test_phone_width_shows_one_column(browser, server):
    browser.set_window_size(390, 844)
    time.sleep(0.5)
    browser.save_screenshot(str(SHOTS / "editor-phone.png"))
    stage = browser.find_element(By.ID, "stage").rect
    panels = browser.find_element(By.CSS_SELECTOR, ".panels").rect
    assert panels["y"] > stage["y"] + stage["height"] - 1  # below the stage, not beside it
    browser.get(server.base + "/")
    wait(browser, lambda d: d.find_element(By.ID, "thumbnails").find_elements(By.TAG_NAME, "li"), what="a thumbnail")
    browser.save_screenshot(str(SHOTS / "gallery-phone.png"))
    browser.set_window_size(1400, 1300)
