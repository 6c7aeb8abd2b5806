"""The editor in a real browser: Debian's chromium through chromedriver (given by path, so
selenium never looks on the network)."""
import json
import re
import math
import os
import pathlib
import shutil
import subprocess
import tempfile
import time

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import EXAMPLE, ROOT, reveal

SHOTS = pathlib.Path(os.environ.get("MEMERY_SCREENSHOTS", tempfile.gettempdir())) / "memery-screens"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def chromium(*extra):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1300", "--disable-gpu", *extra]:
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    return webdriver.Chrome(service=Service(DRIVER), options=options)


@pytest.fixture(scope="module")
def browser(server):
    driver = chromium()
    driver.get(server.url)  # trades the token for the cookie
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def wait(driver, condition, timeout=20, what="the page"):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d), message=f"waited for {what}")


def more_sources(driver):
    """Opens "More ways to start" (blank, link, web, garage, template), folded on a phone."""
    more = driver.find_element(By.ID, "more-sources")
    if not more.get_attribute("open"):
        more.find_element(By.TAG_NAME, "summary").click()
    wait(driver, lambda d: d.find_element(By.ID, "blank-form").is_displayed(), what="the other ways to start")


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
    # Its words open to be typed over (test_editor_layout types them); Escape keeps "Your text".
    words = wait(browser, lambda d: d.find_element(By.ID, "inline-text") if d.find_element(By.ID, "inline-text").is_displayed() else None,
                 what="the new box's words open")
    words.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not words.is_displayed(), what="the words closed")
    layer = show(server, "chelsea")["layers"][-1]
    assert layer["kind"] == "text"
    picture = browser.find_element(By.ID, "picture")
    ratio = show(server, "chelsea")["width"] / picture.size["width"]
    start = (layer["transform"]["x"] / ratio - picture.size["width"] / 2, layer["transform"]["y"] / ratio - picture.size["height"] / 2)
    ActionChains(browser).move_to_element_with_offset(picture, *start).click_and_hold().pause(0.8) \
        .move_by_offset(20, 20).move_by_offset(20, 20).move_by_offset(0, 0).release().perform()
    settle(browser, server, "chelsea", 6)
    moved = show(server, "chelsea")["layers"][-1]
    assert moved["id"] == layer["id"]
    assert abs((moved["transform"]["x"] - layer["transform"]["x"]) / ratio - 40) < 3, moved["transform"]
    assert abs((moved["transform"]["y"] - layer["transform"]["y"]) / ratio - 40) < 3, moved["transform"]


def test_a_stroke_is_drawn_undone_with_ctrl_z_and_redone(browser, server):
    reveal(browser, "[data-tool=brush]")
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
    reveal(browser, "filter-choice")
    choice = browser.find_element(By.ID, "filter-choice")
    browser.execute_script("arguments[0].value = 'org.memery.grayscale'; arguments[0].dispatchEvent(new Event('change'))", choice)
    wait(browser, lambda d: "/preview?" in d.find_element(By.ID, "picture").get_attribute("src"), what="the filter preview")
    browser.find_element(By.ID, "filter-apply").click()
    settle(browser, server, "chelsea", 10)
    assert [f["filter"] for f in show(server, "chelsea")["filters"]] == ["org.memery.grayscale"]
    browser.save_screenshot(str(SHOTS / "editor-filtered-desktop.png"))


def test_the_time_slider_shows_an_older_picture(browser, server):
    reveal(browser, "time-slider")
    slider = browser.find_element(By.ID, "time-slider")
    browser.execute_script("arguments[0].value = 3; arguments[0].dispatchEvent(new Event('input'))", slider)
    wait(browser, lambda d: picture_version(d) == "3", what="the picture at event 3")
    # Named as History names the edit it shows (#3), not by a count of its own.
    label = browser.find_element(By.ID, "time-label").text
    assert label.startswith("#3 · "), label
    assert browser.find_elements(By.CSS_SELECTOR, '#history li[data-version="3"].scrubbed'), "History marks the v3 the slider shows"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#history li.scrubbed")) == 1
    # "shown now" moves with the picture: the head's row says only where the creation is.
    row_words = "return [...document.querySelectorAll(arguments[0])].map((li) => li.querySelector('button span').textContent)"
    assert browser.execute_script(row_words, "#history li.scrubbed")[0].startswith("#3 · shown · ")
    head_words = browser.execute_script(row_words, "#history li.head")[0]
    assert " · now · " in head_words and "shown" not in head_words, head_words
    time.sleep(0.3)  # the older picture has loaded and laid out: the present's selection stays hidden
    assert not browser.find_element(By.ID, "selection").is_displayed(), "no handles on a layer of the present over the past"
    old = server.request("GET", "/api/creations/chelsea/render?version=3&width=200")[2]
    now = server.request("GET", "/api/creations/chelsea/render?width=200")[2]
    assert old != now
    browser.save_screenshot(str(SHOTS / "editor-time-travel-desktop.png"))
    # Event 8 was an undo (Ctrl+Z above): a step of its own, which shows an older edit.
    browser.execute_script("arguments[0].value = 8; arguments[0].dispatchEvent(new Event('input'))", slider)
    label = browser.find_element(By.ID, "time-label").text
    assert "(undo)" in label, label
    browser.execute_script("arguments[0].value = arguments[0].max; arguments[0].dispatchEvent(new Event('input'))", slider)
    assert not browser.find_elements(By.CSS_SELECTOR, "#history li.scrubbed"), "at now, nothing is marked"
    assert " · shown now · " in browser.execute_script(row_words, "#history li.head")[0]


def test_an_edit_from_the_cli_shows_in_the_open_page(browser, server):
    run = server.memery("text", "chelsea", "--top", "typed in a terminal")
    assert run.returncode == 0, run.stderr
    wait(browser, lambda d: d.find_element(By.ID, "top-caption").get_attribute("value") == "typed in a terminal",
         timeout=5, what="the CLI's caption in the page")


def open_creation(browser, server, name):
    browser.get(f"{server.base}/#/creation/{name}")
    events = show(server, name)["events"]
    wait(browser, lambda d: d.find_element(By.ID, "editor-view").is_displayed(), what="the editor")
    settle(browser, server, name, events)
    return events


def centre_of(element):
    rect = element.rect
    return rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2


def test_the_handles_resize_and_rotate_a_layer_one_event_each(browser, server):
    events = open_creation(browser, server, "chelsea")
    box = next(l for l in show(server, "chelsea")["layers"] if l.get("role") == "free")
    picture = browser.find_element(By.ID, "picture")
    ratio = show(server, "chelsea")["width"] / picture.size["width"]
    offset = (box["transform"]["x"] / ratio - picture.size["width"] / 2, box["transform"]["y"] / ratio - picture.size["height"] / 2)
    browser.execute_script("window.memery.select(null)")  # a click on the chosen text would open its words
    ActionChains(browser).move_to_element_with_offset(picture, *offset).click().perform()
    wait(browser, lambda d: d.find_element(By.ID, "selection").is_displayed(), what="the selection's handles")
    assert not browser.find_element(By.ID, "inline-text").is_displayed(), "a click on a text not chosen only chooses it"
    left, top = picture.rect["x"], picture.rect["y"]
    centre = (left + box["transform"]["x"] / ratio, top + box["transform"]["y"] / ratio)

    # Resize: the corner handle pulled outward; the scale follows the distance from the centre.
    handle = browser.find_element(By.CSS_SELECTOR, ".handle.resize")
    start = centre_of(handle)
    ActionChains(browser).move_to_element(handle).click_and_hold().pause(0.3) \
        .move_by_offset(15, 10).move_by_offset(15, 10).release().perform()
    settle(browser, server, "chelsea", events + 1)
    resized = next(l for l in show(server, "chelsea")["layers"] if l["id"] == box["id"])
    expected = ((start[0] + 30 - centre[0]) ** 2 + (start[1] + 20 - centre[1]) ** 2) ** 0.5 \
        / ((start[0] - centre[0]) ** 2 + (start[1] - centre[1]) ** 2) ** 0.5
    assert abs(resized["transform"]["scale"] / box["transform"]["scale"] - expected) < 0.03, (resized["transform"], expected)
    browser.save_screenshot(str(SHOTS / "editor-resized-desktop.png"))

    # Rotate with Shift held: 47 degrees of pointer travel around the centre snaps to 45.
    handle = browser.find_element(By.CSS_SELECTOR, ".handle.rotate")
    hx, hy = centre_of(handle)
    radius = ((hx - centre[0]) ** 2 + (hy - centre[1]) ** 2) ** 0.5
    start_angle = math.atan2(hy - centre[1], hx - centre[0])
    chain = ActionChains(browser).key_down(Keys.SHIFT).move_to_element(handle).click_and_hold().pause(0.3)
    x, y = hx, hy
    for step in range(1, 6):
        angle = start_angle + math.radians(47) * step / 5
        nx, ny = centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)
        chain = chain.move_by_offset(round(nx - x), round(ny - y))
        x, y = x + round(nx - x), y + round(ny - y)
    chain.release().key_up(Keys.SHIFT).perform()
    settle(browser, server, "chelsea", events + 2)
    turned = next(l for l in show(server, "chelsea")["layers"] if l["id"] == box["id"])
    assert turned["transform"]["rotation"] == 45, turned["transform"]
    assert turned["transform"]["scale"] == resized["transform"]["scale"]
    browser.save_screenshot(str(SHOTS / "editor-rotated-desktop.png"))


def test_every_control_has_a_name_and_the_keyboard_reaches_them(browser, server):
    open_creation(browser, server, "chelsea")
    unnamed_script = """
      const name = (e) => (e.getAttribute('aria-label') || [...(e.labels || [])].map((l) => l.textContent).join(' ')
        || e.textContent || e.title || e.placeholder || e.alt || '').trim();
      return [...document.querySelectorAll('button, input, select, textarea, a[href], summary, [tabindex]')]
        .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
        .filter((e) => !name(e)).map((e) => e.outerHTML.slice(0, 120));
    """
    assert browser.execute_script(unnamed_script) == [], "controls without a name a screen reader could say"

    def tab_through(limit):
        browser.execute_script("document.activeElement?.blur(); window.scrollTo(0, 0)")
        reached, outlines = [], set()  # outlines: the controls focused without one
        body = browser.find_element(By.TAG_NAME, "body")
        for _ in range(limit):
            ActionChains(browser).send_keys(Keys.TAB).perform()
            info = browser.execute_script("""
              const e = document.activeElement, s = getComputedStyle(e);
              if (e === document.body) return ['(past the last control)', 'auto', '1px'];
              return [e.id || e.dataset.tool || e.dataset.sheet || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 20), s.outlineStyle, s.outlineWidth];""")
            reached.append(info[0])
            if info[1] == "none" or info[2] == "0px":
                outlines.add(info[0])
        return reached, outlines

    browser.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="text"]').click()
    reached, outlines = tab_through(80)
    for control in ["undo", "redo", "text", "stickers", "draw", "filters", "crop", "history", "export",
                    "add-text", "top-caption", "bottom-caption"]:
        assert control in reached, f"{control} is not reached by Tab: {reached}"
    assert not outlines, f"focused without a visible outline: {outlines}"
    # Each task's sheet, opened from the tool bar, is reached by Tab too.
    for sheet, controls in [("stickers", ["choose-sticker", "add-rect"]), ("draw", ["brush", "eraser"]), ("filters", ["filter-choice", "filter-apply"]),
                            ("crop", ["crop", "rotate-left"]), ("history", ["time-slider"]), ("export", ["export-format", "export-link"])]:
        browser.find_element(By.CSS_SELECTOR, f'.tool-bar [data-sheet="{sheet}"]').click()
        reached, outlines = tab_through(60)
        for control in controls:
            assert control in reached, f"{control} is not reached by Tab in the {sheet} sheet: {reached}"
        assert not outlines, f"focused without a visible outline: {outlines}"
    browser.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="text"]').click()

    # Ctrl+Z while typing belongs to the field, not to the creation's history.
    events = show(server, "chelsea")["events"]
    top = browser.find_element(By.ID, "top-caption")
    top.click()
    top.send_keys(" more")
    top.send_keys(Keys.CONTROL, "z")
    time.sleep(0.5)
    assert show(server, "chelsea")["events"] == events

    # A layer chosen in the Layers panel moves with the arrows: three steps, one edit.
    box = next(l for l in show(server, "chelsea")["layers"] if l.get("role") == "free")
    picture = browser.find_element(By.ID, "picture")
    ratio = show(server, "chelsea")["width"] / picture.size["width"]
    layer_button = browser.find_element(By.CSS_SELECTOR, f'#layers li[data-layer="{box["id"]}"] button')
    layer_button.send_keys(Keys.ENTER)
    focused = browser.execute_script("return document.activeElement.closest('#layers li')?.dataset.layer")
    assert focused == box["id"], "the keyboard keeps its place in the redrawn Layers panel"
    for _ in range(3):
        ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.SHIFT).perform()
    settle(browser, server, "chelsea", events + 1)
    moved = next(l for l in show(server, "chelsea")["layers"] if l["id"] == box["id"])
    assert abs(moved["transform"]["x"] - box["transform"]["x"] - 30 * ratio) < 0.2, (moved["transform"], box["transform"], ratio)
    assert moved["transform"]["y"] == box["transform"]["y"]

    browser.get(server.base + "/")
    wait(browser, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
    reached, _ = tab_through(12)
    assert "choose-picture" in reached and "camera" in reached, reached
    assert browser.execute_script(unnamed_script) == []


def test_a_crop_dragged_on_the_canvas_keeps_that_rectangle(browser, server):
    events = open_creation(browser, server, "chelsea")
    before = show(server, "chelsea")
    reveal(browser, "[data-tool=crop]")
    browser.find_element(By.CSS_SELECTOR, "[data-tool=crop]").click()
    picture = browser.find_element(By.ID, "picture")
    ratio = before["width"] / picture.size["width"]
    ActionChains(browser).move_to_element_with_offset(picture, -100, -60).click_and_hold().pause(0.2) \
        .move_by_offset(90, 55).move_by_offset(90, 55).release().perform()
    settle(browser, server, "chelsea", events + 1)
    after = show(server, "chelsea")
    assert abs(after["width"] - 180 * ratio) <= 2 and abs(after["height"] - 110 * ratio) <= 2, (after["width"], after["height"], ratio)
    browser.save_screenshot(str(SHOTS / "editor-cropped-desktop.png"))
    pressed = browser.find_element(By.CSS_SELECTOR, "[data-tool=crop]").get_attribute("aria-pressed")
    assert pressed == "false", "the crop tool lets go after a crop (issue 31's defect 8)"


def test_the_camera_makes_a_creation_from_a_webcam_picture(server):
    # Chromium's own fake camera (a moving test pattern, 640x480), allowed without asking.
    driver = chromium("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream")
    try:
        driver.get(server.url)
        wait(driver, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
        driver.find_element(By.ID, "camera").click()
        wait(driver, lambda d: d.execute_script(
            "const v = document.getElementById('camera-video'); return v.readyState >= 2 && v.videoWidth > 0"), what="the camera's picture")
        driver.save_screenshot(str(SHOTS / "gallery-camera-desktop.png"))
        driver.find_element(By.ID, "camera-shoot").click()
        wait(driver, lambda d: d.find_element(By.ID, "editor-view").is_displayed(), what="the editor")
        # Named by when it was taken, as a phone names its photos.
        taken = wait(driver, lambda d: next((c["name"] for c in server.json("GET", "/api/creations")[1]["creations"]
                                             if re.fullmatch(r"photo \d{4}-\d\d-\d\d \d\d\.\d\d", c["name"])), None), what="the creation")
        state = show(server, taken)
        assert (state["width"], state["height"]) == (640, 480)
        assert driver.find_element(By.ID, "camera-box").get_attribute("hidden") is not None, "the camera closes after the picture"
    finally:
        driver.quit()


def names(server, trash=False):
    return [c["name"] for c in server.json("GET", "/api/creations" + ("?trash=true" if trash else ""))[1]["creations"]]


def test_the_gallery_renames_favourites_trashes_and_takes_the_same_picture_twice(browser, server):
    browser.get(server.base + "/")
    wait(browser, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
    before = names(server)
    for _ in range(2):  # the same file chosen twice makes two creations
        browser.find_element(By.ID, "upload").send_keys(str(EXAMPLE))
        wait(browser, lambda d: d.find_element(By.ID, "editor-view").is_displayed(), what="the editor")
        browser.find_element(By.ID, "home").click()
        wait(browser, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
    added = [n for n in names(server) if n not in before]
    assert len(added) == 2, added
    copy = added[-1]

    def press(label):
        """Clicks a card's control; the list is drawn again on every change, so find it afresh."""
        def attempt(d):
            try:
                d.find_element(By.CSS_SELECTOR, f'li.thumbnail [aria-label="{label}"]').click()
                return True
            except (StaleElementReferenceException, NoSuchElementException):
                return False
        wait(browser, attempt, what=label)

    press(f"Favourite {copy}")
    wait(browser, lambda d: server.json("GET", f"/api/creations/{copy}")[1]["favorite"], what="the favourite")
    browser.execute_script("window.prompt = () => 'renamed from the gallery'")
    press(f"Rename {copy}")
    wait(browser, lambda d: "renamed from the gallery" in names(server), what="the rename")
    press("Move renamed from the gallery to the trash")
    wait(browser, lambda d: "renamed from the gallery" in names(server, trash=True), what="the trash")
    browser.find_element(By.ID, "show-trash").click()
    wait(browser, lambda d: d.find_element(By.ID, "gallery-heading").text == "In the trash", what="the trash's heading")
    browser.find_element(By.ID, "search").send_keys("no such words")
    empty = wait(browser, lambda d: d.find_element(By.ID, "gallery-empty").is_displayed() and d.find_element(By.ID, "gallery-empty"), what="the empty note")
    assert "Nothing in the trash matches" in empty.text
    browser.save_screenshot(str(SHOTS / "gallery-trash-empty-search-desktop.png"))
    browser.find_element(By.ID, "search").clear()
    browser.execute_script("const s = document.getElementById('search'); s.dispatchEvent(new Event('input'))")
    press("Restore renamed from the gallery")
    wait(browser, lambda d: "renamed from the gallery" in names(server), what="the restore")
    browser.find_element(By.ID, "show-trash").click()
    browser.save_screenshot(str(SHOTS / "gallery-desktop.png"))


def test_a_portrait_picture_fits_the_window_and_a_shape_takes_the_style_panel(browser, server):
    name = names(server)[0]
    events = open_creation(browser, server, name)
    reveal(browser, "rotate-right")
    browser.find_element(By.ID, "rotate-right").click()
    settle(browser, server, name, events + 1)
    state = show(server, name)
    assert state["height"] > state["width"], "turned to portrait"
    picture = browser.find_element(By.ID, "picture").rect
    height = browser.execute_script("return window.innerHeight")
    assert picture["height"] <= height, (picture, height)
    assert abs(picture["width"] / picture["height"] - state["width"] / state["height"]) < 0.02
    browser.save_screenshot(str(SHOTS / "editor-portrait-desktop.png"))
    reveal(browser, "add-rect")
    browser.find_element(By.ID, "add-rect").click()
    settle(browser, server, name, events + 2)
    rect = show(server, name)["layers"][-1]
    assert rect["kind"] == "shape"
    reveal(browser, "style-panel")
    fill = browser.find_element(By.CSS_SELECTOR, "#style-panel [name=color]")
    assert fill.is_enabled(), "a shape's fill is set in the style panel"
    browser.execute_script("arguments[0].value = '#00ff00'; arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", fill)
    settle(browser, server, name, events + 3)
    assert show(server, name)["layers"][-1]["shape"]["fill"].lower().startswith("#00ff00")
    # Said in words: a person picked a swatch and never saw its code.
    assert browser.find_element(By.ID, "status").text == "fill of the rectangle: lime"
    assert "rectangle" in browser.find_element(By.ID, "layers").text
