"""The editor as an app (issue 31), at a phone's size with touch (390x844, Chromium's mobile
emulation) and a desktop's (1440x900): with every tool's sheet open the whole picture is in
the view, large, and nothing is drawn over it; nothing is wider than the screen; on touch
every control is at least 44x44 CSS pixels and a touch 20 px off a handle's centre takes
the handle; axe-core finds no serious or critical violation."""
import json
import shutil
import time

import pytest
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.interaction import POINTER_TOUCH
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import EXAMPLE, reveal
from test_editor import DRIVER, SHOTS, open_creation, settle, show, wait

SHEETS = ["text", "stickers", "draw", "filters", "crop", "history", "export"]
PHONE = {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True},
         "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"}


def chromium(phone):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    if phone:
        options.add_experimental_option("mobileEmulation", PHONE)
    else:
        options.add_argument("--window-size=1440,900")
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    if not phone:
        # The window's outer size includes no browser chrome when headless: the view is 1440x900.
        driver.set_window_size(1440, 900)
    return driver


# A browser of its own for each test: what one test leaves (a sheet open, emulated touches
# in chromedriver) cannot change what the next one sees.
@pytest.fixture(params=["phone", "desktop"])
def device(request, server):
    phone = request.param == "phone"
    driver = chromium(phone)
    driver.get(server.url)
    SHOTS.mkdir(parents=True, exist_ok=True)
    if not any(c["name"] == "layout" for c in server.json("GET", "/api/creations")[1]["creations"]):
        run = server.memery("new", "layout", "--image", str(EXAMPLE))
        assert run.returncode == 0, run.stderr
        assert server.memery("text", "layout", "--top", "picture in view", "--bottom", "always").returncode == 0
    yield request.param, driver
    driver.quit()


# Where the picture is and what covers it, measured in the page.
GEOMETRY = """
const picture = document.getElementById('picture'), stage = document.getElementById('stage');
const p = picture.getBoundingClientRect(), vw = innerWidth, vh = innerHeight;
const points = [[p.left + 3, p.top + 3], [p.right - 3, p.top + 3], [p.left + 3, p.bottom - 3], [p.right - 3, p.bottom - 3],
                [(p.left + p.right) / 2, (p.top + p.bottom) / 2]];
const covered = points.filter(([x, y]) => { const e = document.elementFromPoint(x, y); return !(e && (e === picture || stage.contains(e))); })
  .map(([x, y]) => { const e = document.elementFromPoint(x, y); return e ? e.tagName + '#' + e.id + '.' + e.className : 'nothing'; });
const wide = [...document.querySelectorAll('body *')].filter((e) => e.getClientRects().length)
  .filter((e) => { const r = e.getBoundingClientRect(); return r.width > vw + 1 || r.right > vw + 1 || r.left < -1; })
  .filter((e) => !e.closest('#stage'))
  .filter((e) => { for (let a = e.parentElement; a; a = a.parentElement) if (['auto', 'scroll'].includes(getComputedStyle(a).overflowX)) return false; return true; })
  .map((e) => e.tagName + '#' + e.id + '.' + e.className);
return {left: p.left, top: p.top, right: p.right, bottom: p.bottom, width: p.width, height: p.height, vw, vh, covered, wide,
        scrollWidth: document.documentElement.scrollWidth};
"""

# Visible controls whose hit area (a checkbox's is its label) is under 44x44.
SMALL = """
return [...document.querySelectorAll('button, a[href], input, select, textarea')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden' && !e.closest('[hidden]'))
  .map((e) => [e, (e.type === 'checkbox' && e.closest('label')) || e])
  .map(([e, area]) => [e, area.getBoundingClientRect()])
  .filter(([e, r]) => r.width < 43.5 || r.height < 43.5)
  .map(([e, r]) => (e.id || e.dataset.sheet || e.getAttribute('aria-label') || e.name || e.textContent.trim().slice(0, 20)) + ` ${Math.round(r.width)}x${Math.round(r.height)}`);
"""


def open_sheet(driver, name):
    """Opens a tool's sheet by its button (pressing the open one on a phone would close it)."""
    if not driver.find_element(By.CSS_SELECTOR, f'.sheet-page[data-sheet="{name}"]').is_displayed():
        driver.find_element(By.CSS_SELECTOR, f'.tool-bar [data-sheet="{name}"]').click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'.sheet-page[data-sheet="{name}"]').is_displayed(), what=f"the {name} sheet")


def press_sheet(driver, sheet):
    """Opens a tool's sheet by its button (unless it is open) and waits until it shows and the
    picture has stopped moving: a sheet that opens, and the history it loads, fit the picture
    again after the sheet first shows, and a look in between finds the picture half covered."""
    button = driver.find_element(By.CSS_SELECTOR, f'.tool-bar [data-sheet="{sheet}"]')
    if button.get_attribute("aria-pressed") != "true":
        button.click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'.sheet-page[data-sheet="{sheet}"]').is_displayed(), what=f"the {sheet} sheet")
    last = [None]

    def unmoved(d):
        now = d.execute_script("const r = document.getElementById('picture').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
        same, last[0] = now == last[0], now
        return same

    WebDriverWait(driver, 20, poll_frequency=0.2).until(unmoved, message=f"waited for the picture to settle with the {sheet} sheet")


def check_picture(driver, what):
    g = driver.execute_script(GEOMETRY)
    assert g["left"] >= -0.5 and g["top"] >= -0.5 and g["right"] <= g["vw"] + 0.5 and g["bottom"] <= g["vh"] + 0.5, f"{what}: the picture leaves the view {g}"
    assert min(g["width"], g["height"]) >= 0.4 * min(g["vw"], g["vh"]), f"{what}: the picture is too small {g}"
    assert not g["covered"], f"{what}: drawn over the picture: {g['covered']}"
    assert not g["wide"] and g["scrollWidth"] <= g["vw"], f"{what}: wider than the screen: {g['wide']} (page {g['scrollWidth']} in {g['vw']})"


def test_every_sheet_leaves_the_whole_picture_in_view(device, server):
    kind, driver = device
    open_creation(driver, server, "layout")
    if kind == "phone":
        assert driver.execute_script("return matchMedia('(pointer: coarse)').matches"), "the phone emulation is a touch screen"
        assert driver.execute_script("return innerWidth") == 390
    for sheet in SHEETS:
        press_sheet(driver, sheet)
        check_picture(driver, f"{kind}, {sheet} open")
        driver.save_screenshot(str(SHOTS / f"editor-{sheet}-{kind}.png"))
        if kind == "phone":
            small = driver.execute_script(SMALL)
            assert not small, f"{sheet} sheet: controls smaller than 44x44 on touch: {small}"
    if kind == "phone":
        # The open task's button again closes its sheet: the picture grows, still whole.
        before = driver.execute_script(GEOMETRY)["width"]
        driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="export"]').click()
        wait(driver, lambda d: not d.find_element(By.ID, "sheet").is_displayed(), what="the sheet closed")
        check_picture(driver, "phone, no sheet")
        assert driver.execute_script(GEOMETRY)["width"] >= before
        driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="text"]').click()


def test_a_portrait_picture_and_a_turned_phone_keep_it_in_view(device, server):
    kind, driver = device
    if not any(c["name"] == "tall" for c in server.json("GET", "/api/creations")[1]["creations"]):
        assert server.memery("new", "tall", "--canvas", "540x960", "--background", "#3366cc").returncode == 0
    open_creation(driver, server, "tall")
    for sheet in ["text", "filters", "history"]:
        press_sheet(driver, sheet)
        check_picture(driver, f"{kind}, portrait picture, {sheet} open")
    driver.save_screenshot(str(SHOTS / f"editor-portrait-{kind}.png"))
    if kind == "phone":
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 844, "height": 390, "deviceScaleFactor": 3, "mobile": True})
        try:
            open_creation(driver, server, "layout")
            wait(driver, lambda d: d.execute_script("return innerWidth") == 844, what="the turned phone")
            for sheet in ["text", "filters"]:
                press_sheet(driver, sheet)
                check_picture(driver, f"phone on its side, {sheet} open")
            driver.save_screenshot(str(SHOTS / "editor-phone-landscape.png"))
        finally:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})


def touch(driver, x, y, to=None, hold=0.3):
    """A finger on the page at (x, y), held `hold` seconds, drawn to `to` in four steps, lifted."""
    actions = ActionBuilder(driver, mouse=PointerInput(POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to_location(round(x), round(y)).pointer_down().pause(hold)
    if to:
        for step in range(1, 5):
            actions.pointer_action.move_to_location(round(x + (to[0] - x) * step / 4), round(y + (to[1] - y) * step / 4))
    actions.pointer_action.pointer_up()
    actions.perform()


def two_fingers(driver, one, two, duration):
    """Two fingers down at the first points of `one` and `two`, drawn through the rest (each
    step `duration` ms), and lifted; chromedriver then forgets them, so later taps are taps."""
    actions = ActionBuilder(driver)
    fingers = [actions.add_pointer_input(POINTER_TOUCH, "one"), actions.add_pointer_input(POINTER_TOUCH, "two")]
    for finger, path in zip(fingers, (one, two)):
        finger.create_pointer_move(x=round(path[0][0]), y=round(path[0][1]))
    for finger in fingers:
        finger.create_pointer_down(button=0)
    for a, b in zip(one[1:], two[1:]):
        fingers[0].create_pointer_move(x=round(a[0]), y=round(a[1]), duration=duration)
        fingers[1].create_pointer_move(x=round(b[0]), y=round(b[1]), duration=duration)
    for finger in fingers:
        finger.create_pointer_up(button=0)
    actions.perform()
    actions.clear_actions()


def on_screen(driver, state, layer):
    """Where a layer's centre is on the screen."""
    picture = driver.find_element(By.ID, "picture")
    ratio = state["width"] / picture.size["width"]
    return picture.rect["x"] + layer["transform"]["x"] / ratio, picture.rect["y"] + layer["transform"]["y"] / ratio


def test_a_touch_near_a_handle_takes_the_handle(device, server):
    kind, driver = device
    if kind != "phone":
        pytest.skip("the touch test runs at the phone's size")
    events = open_creation(driver, server, "layout")
    state = show(server, "layout")
    bottom = next(l for l in state["layers"] if l.get("role") == "bottom")
    touch(driver, *on_screen(driver, state, bottom))
    wait(driver, lambda d: d.find_element(By.ID, "selection").is_displayed(), what="the bottom caption selected")
    handle = driver.find_element(By.CSS_SELECTOR, ".handle.resize").rect
    hx, hy = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    # 20 px off the handle's centre, toward the caption's own body (where a miss used to move it).
    start = (hx - 14, hy - 14)
    touch(driver, *start, to=(start[0] + 30, start[1] + 20))
    settle(driver, server, "layout", events + 1)
    after = next(l for l in show(server, "layout")["layers"] if l["id"] == bottom["id"])
    assert after["transform"]["scale"] != bottom["transform"]["scale"], "the handle was taken: the caption was resized"
    assert (after["transform"]["x"], after["transform"]["y"]) == (bottom["transform"]["x"], bottom["transform"]["y"]), "not moved"


def test_axe_finds_nothing_serious_in_the_gallery_or_the_editor(device, server):
    kind, driver = device
    found = {}
    for where, url in [("gallery", server.base + "/"), ("editor", f"{server.base}/#/creation/layout")]:
        driver.get(url)
        view = "gallery-view" if where == "gallery" else "editor-view"
        wait(driver, lambda d: d.find_element(By.ID, view).is_displayed(), what=f"the {where}")
        if where == "editor":
            settle(driver, server, "layout", show(server, "layout")["events"])
        axe = Axe(driver)
        axe.inject()
        results = axe.run()
        serious = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
        found[where] = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in serious]
    assert found == {"gallery": [], "editor": []}, json.dumps(found, indent=1)


def test_a_filter_preview_is_labelled_and_never_downloaded_as_applied(device, server):
    kind, driver = device
    open_creation(driver, server, "layout")
    open_sheet(driver, "filters")
    choice = driver.find_element(By.ID, "filter-choice")
    driver.execute_script("arguments[0].value = 'org.memery.sepia'; arguments[0].dispatchEvent(new Event('change'))", choice)
    wait(driver, lambda d: "/preview?" in d.find_element(By.ID, "picture").get_attribute("src"), what="the preview")
    note = driver.find_element(By.ID, "preview-note")
    assert note.is_displayed() and "not applied" in note.text
    # A slider previews while it is dragged, before it is let go.
    amount = driver.find_element(By.CSS_SELECTOR, '#filter-params [data-param="amount"]')
    driver.execute_script("arguments[0].value = '0.25'; arguments[0].dispatchEvent(new Event('input'))", amount)
    wait(driver, lambda d: "set=amount%3D0.25" in d.find_element(By.ID, "picture").get_attribute("src"), what="the slider previewed as it is dragged")
    # Going to Export lets the preview go: the picture is again what a download gives.
    open_sheet(driver, "export")
    wait(driver, lambda d: "/preview?" not in d.find_element(By.ID, "picture").get_attribute("src"), what="the preview let go")
    assert not driver.find_element(By.ID, "preview-note").is_displayed()
    assert "not applied" in driver.find_element(By.ID, "status").text
    assert show(server, "layout")["filters"] == []
    driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="text"]').click()


def test_a_wide_slider_gives_its_travel_to_the_small_values_people_use(device, server):
    # A blur's radius runs 0 to 500 from 5: spread evenly, 5 sat at the track's first
    # hundredth and the smallest slide on a phone moved it by two (a walk-through).
    kind, driver = device
    name = f"blurred-{kind}"
    assert server.memery("new", name, "--canvas", "80x60", "--background", "#3366cc").returncode == 0
    events = open_creation(driver, server, name)
    open_sheet(driver, "filters")
    choice = driver.find_element(By.ID, "filter-choice")
    driver.execute_script("arguments[0].value = 'org.memery.gaussian-blur'; arguments[0].dispatchEvent(new Event('change'))", choice)
    radius = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '#filter-params [data-param="radius"]'), what="the radius")
    shown = lambda: radius.find_element(By.XPATH, "following-sibling::output").text
    assert radius.get_attribute("aria-valuetext") == "5" and shown() == "5", "the default is said and shown as it is"
    track = int(radius.get_attribute("max"))
    assert int(radius.get_attribute("value")) >= track / 4, "the default sits past the track's first quarter, not at its first hundredth"
    # One arrow step from the default moves it a little, and what it stands for is previewed.
    radius.send_keys(Keys.ARROW_RIGHT)
    stepped = float(radius.get_attribute("aria-valuetext"))
    assert 5 < stepped <= 5.5 and shown() == radius.get_attribute("aria-valuetext"), stepped
    wait(driver, lambda d: f"set=radius%3D{shown()}" in d.find_element(By.ID, "picture").get_attribute("src"), what="the stepped radius previewed")
    # The middle of the track is a radius people use, not 250; the end is still the range's end.
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", radius, track // 2)
    assert 10 <= float(shown()) <= 40, shown()
    middle = shown()
    wait(driver, lambda d: f"set=radius%3D{middle}" in d.find_element(By.ID, "picture").get_attribute("src"), what="the middle previewed")
    driver.save_screenshot(str(SHOTS / f"blur-slider-{kind}.png"))
    slide = "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))"
    driver.execute_script(slide, radius, track)
    assert shown() == "500"
    driver.execute_script(slide, radius, track // 2)
    driver.find_element(By.ID, "filter-apply").click()
    settle(driver, server, name, events + 1)
    assert show(server, name)["filters"][-1]["params"]["radius"] == middle, "the value shown is the value stored"
    # A radius no step rounds to, set from the command line, is shown and kept exact.
    assert server.memery("filter", "set", name, "1", "radius=137").returncode == 0
    settle(driver, server, name, events + 2)
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '#applied-filters [aria-label^="Change the settings of "]'), what="the applied blur").click()
    kept = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '.filter-settings [data-param="radius"]'), what="its radius")
    assert kept.get_attribute("aria-valuetext") == "137" and kept.find_element(By.XPATH, "following-sibling::output").text == "137"


def test_a_seed_shows_the_value_it_applies_and_recommend_stays_hidden_without_a_hub(device, server):
    kind, driver = device
    if kind != "desktop":
        pytest.skip("once is enough")
    open_creation(driver, server, "layout")
    assert not driver.find_element(By.ID, "recommend").is_displayed(), "no hub: no Recommend"
    driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="filters"]').click()
    choice = driver.find_element(By.ID, "filter-choice")
    driver.execute_script("arguments[0].value = 'org.memery.deep-fry'; arguments[0].dispatchEvent(new Event('change'))", choice)
    seed = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '[data-param="seed"]'), what="the seed's control")
    assert seed.get_attribute("value") == "42", "the seed shown is the seed applied"
    events = show(server, "layout")["events"]
    driver.find_element(By.ID, "filter-apply").click()
    settle(driver, server, "layout", events + 1)
    applied = show(server, "layout")["filters"][-1]
    assert applied["filter"] == "org.memery.deep-fry" and str(applied["params"].get("seed")) == "42", applied
    assert server.memery("undo", "layout").returncode == 0


def test_apply_stays_in_reach_while_a_filters_settings_scroll(device, server):
    # Deep fry has five settings: on a phone they fill more than the sheet, and Apply was
    # below them, behind a scroll (a walk-through found it).
    kind, driver = device
    open_creation(driver, server, "layout")
    open_sheet(driver, "filters")
    choice = driver.find_element(By.ID, "filter-choice")
    driver.execute_script("arguments[0].value = 'org.memery.deep-fry'; arguments[0].dispatchEvent(new Event('change'))", choice)
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '[data-param="seed"]'), what="the settings")
    sheet = driver.find_element(By.ID, "sheet")
    if kind == "phone":
        assert driver.execute_script("return arguments[0].scrollHeight > arguments[0].clientHeight + 40", sheet), "the settings overflow the sheet"
    apply = driver.find_element(By.ID, "filter-apply")
    in_reach = """const b = arguments[0].getBoundingClientRect(), s = arguments[1].getBoundingClientRect();
      const e = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      return b.top >= s.top && b.bottom <= s.bottom + 1 && (e === arguments[0] || arguments[0].contains(e));"""
    for where in ["0", "arguments[0].scrollHeight / 3"]:  # at the top, and scrolled into the settings
        driver.execute_script(f"arguments[0].scrollTop = {where}", sheet)
        time.sleep(0.1)
        assert driver.execute_script(in_reach, apply, sheet), f"{kind}: Apply is in the sheet and not covered (scrolled to {where})"
    driver.save_screenshot(str(SHOTS / f"editor-filter-apply-{kind}.png"))
    events = show(server, "layout")["events"]
    apply.click()
    settle(driver, server, "layout", events + 1)
    assert show(server, "layout")["filters"][-1]["filter"] == "org.memery.deep-fry"
    assert server.memery("undo", "layout").returncode == 0


def test_the_editor_can_be_installed_and_opens_on_the_gallery(device, server):
    kind, driver = device
    driver.get(server.base + "/")
    wait(driver, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
    status, headers, body = server.request("GET", "/app/manifest.webmanifest")
    assert status == 200 and headers["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        status, headers, picture = server.request("GET", icon["src"])
        side = int(icon["sizes"].split("x")[0])
        assert status == 200 and picture[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(picture[16:20], "big") == side and int.from_bytes(picture[20:24], "big") == side, icon
    # Chromium's own verdict on the page as an app.
    errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
    assert errors == [], errors


def test_a_meme_from_the_camera_takes_six_taps_on_a_phone(server):
    """MemeMe's whole task at a phone's size: the camera, a top and a bottom caption, share.
    Each tap is counted; the typing is not."""
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]:
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", PHONE)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    taps = 0

    def tap(locator):
        nonlocal taps
        element = wait(driver, lambda d: d.find_element(*locator) if d.find_element(*locator).is_displayed() else None, what=str(locator))
        element.click()
        taps += 1
        return element

    try:
        driver.get(server.url)
        wait(driver, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
        before = {c["name"] for c in server.json("GET", "/api/creations")[1]["creations"]}
        tap((By.ID, "camera"))
        wait(driver, lambda d: d.execute_script("const v = document.getElementById('camera-video'); return v.readyState >= 2 && v.videoWidth > 0"),
             what="the camera's picture")
        tap((By.ID, "camera-shoot"))
        wait(driver, lambda d: d.find_element(By.ID, "editor-view").is_displayed(), what="the editor")
        name = wait(driver, lambda d: next(iter({c["name"] for c in server.json("GET", "/api/creations")[1]["creations"]} - before), None),
                    what="the new creation")
        tap((By.ID, "top-caption")).send_keys("me at 7 am")
        tap((By.ID, "bottom-caption")).send_keys("me at 7:05 am")
        tap((By.CSS_SELECTOR, '.tool-bar [data-sheet="export"]'))
        tap((By.ID, "share"))
        wait(driver, lambda d: "downloaded" in d.find_element(By.ID, "status").text or "shared" in d.find_element(By.ID, "status").text,
             what="what became of the picture")
        assert taps <= 6, taps
        layers = {l["role"]: l["text"] for l in show(server, name)["layers"] if l.get("role") in ("top", "bottom")}
        assert layers == {"top": "me at 7 am", "bottom": "me at 7:05 am"}, layers
        driver.save_screenshot(str(SHOTS / "mememe-phone.png"))
    finally:
        driver.quit()


def test_a_second_copy_of_a_sticker_lands_beside_the_first(device, server):
    kind, driver = device
    if kind != "desktop":
        pytest.skip("once is enough")
    assert server.memery("garage", "add", str(EXAMPLE), "--name", "cat sticker").returncode == 0
    events = open_creation(driver, server, "layout")
    driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="stickers"]').click()
    for n in range(2):
        wait(driver, lambda d: "cat sticker" in d.find_element(By.ID, "add-sticker").text, what="the sticker in the list")
        driver.execute_script("const s = document.getElementById('add-sticker'); s.value = 'cat sticker'; s.dispatchEvent(new Event('change'))")
        settle(driver, server, "layout", events + n + 1)
    stickers = [l for l in show(server, "layout")["layers"] if l["kind"] == "image"][-2:]
    first, second = (s["transform"] for s in stickers)
    assert (first["x"], first["y"]) != (second["x"], second["y"]), (first, second)
    # The first taken off, a third lands on neither the second nor a caption: a quarter of
    # the picture's width away from each.
    assert server.memery("layer", "remove", "layout", stickers[0]["id"]).returncode == 0
    settle(driver, server, "layout", events + 3)
    driver.execute_script("const s = document.getElementById('add-sticker'); s.value = 'cat sticker'; s.dispatchEvent(new Event('change'))")
    settle(driver, server, "layout", events + 4)
    state = show(server, "layout")
    third = state["layers"][-1]["transform"]
    for layer in state["layers"][:-1]:
        apart = ((layer["transform"]["x"] - third["x"]) ** 2 + (layer["transform"]["y"] - third["y"]) ** 2) ** 0.5
        assert apart >= state["width"] / 4, (layer, third)
    for _ in range(4):
        assert server.memery("undo", "layout").returncode == 0


def test_a_wait_over_300_ms_shows_a_sign_of_work(device, server):
    kind, driver = device
    if kind != "desktop":
        pytest.skip("once is enough")
    open_creation(driver, server, "layout")
    assert not driver.find_element(By.ID, "busy").is_displayed()
    # Every answer made to take 1.2 s, as a big picture's would.
    driver.execute_script("""
      const real = window.fetch;
      window.fetch = (...args) => new Promise((resolve) => setTimeout(() => resolve(real(...args)), 1200));""")
    events = show(server, "layout")["events"]
    driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="export"]').click()
    driver.find_element(By.ID, "favorite").click()
    wait(driver, lambda d: d.find_element(By.ID, "busy").is_displayed(), timeout=5, what="the sign of work")
    wait(driver, lambda d: not d.find_element(By.ID, "busy").is_displayed(), timeout=20, what="the sign gone once answered")
    assert server.json("GET", "/api/creations/layout")[1]["favorite"] is True
    driver.execute_script("location.reload()")
    assert server.memery("unfavorite", "layout").returncode == 0


def test_history_draws_a_branch_in_a_lane_of_its_own_and_goes_back_to_the_newest(device, server):
    kind, driver = device
    if kind != "desktop":
        pytest.skip("once is enough")
    for args in [("new", "branchy", "--canvas", "60x40"), ("text", "branchy", "--top", "first"), ("text", "branchy", "--top", "second"),
                 ("undo", "branchy"), ("text", "branchy", "--top", "other way"), ("undo", "branchy")]:
        assert server.memery(*args).returncode == 0, args
    open_creation(driver, server, "branchy")
    driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="history"]').click()
    rows = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#history li") or None, what="the history")
    lanes = {row.get_attribute("data-version"): row.get_attribute("data-lane") for row in rows}
    tree = json.loads(server.memery("history", "branchy", "--json").stdout)
    assert len(rows) == len(tree["nodes"])
    second, other = (next(n["version"] for n in tree["nodes"] if word in n["summary"]) for word in ('"second"', '"other way"'))
    assert lanes[str(second)] != lanes[str(other)], f"two branches, two lanes: {lanes}"
    head = driver.find_element(By.CSS_SELECTOR, "#history li.head")
    assert head.get_attribute("data-version") == str(tree["head"]) and head.text.startswith(f"#{tree['head']} · shown now ·"), head.text
    dots = driver.find_elements(By.CSS_SELECTOR, "#history svg circle")
    assert len(dots) == len(rows)
    back = driver.find_element(By.ID, "history-newest")
    assert back.is_displayed(), "after an undo the newest edit is one tap away"
    back.click()
    wait(driver, lambda d: json.loads(server.memery("history", "branchy", "--json").stdout)["head"] == other, what="the newest checked out")
    driver.save_screenshot(str(SHOTS / "editor-history-branches-desktop.png"))
    # After that checkout the page asked for what came after its part, not the whole tree,
    # and drew the same tree the CLI prints.
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#history li.head").get_attribute("data-version") == str(other),
         what="the head redrawn")
    asked = driver.execute_script("return performance.getEntriesByType('resource').map((e) => e.name).filter((u) => u.includes('/history'))")
    assert len(asked) >= 2 and "since=" not in asked[0] and "since=" in asked[-1] and "tip=" in asked[-1], asked
    rows = driver.find_elements(By.CSS_SELECTOR, "#history li")
    tree = json.loads(server.memery("history", "branchy", "--json").stdout)
    assert sorted(int(r.get_attribute("data-version")) for r in rows) == sorted(n["version"] for n in tree["nodes"])


def test_history_names_what_the_creation_no_longer_has_and_colours_in_words(device, server):
    kind, driver = device
    name = f"gone-{kind}"
    assert server.memery("new", name, "--canvas", "60x40").returncode == 0
    rect = server.memery("shape", "add", name, "--rect", "10,10,20,10").stdout.strip()
    for args in [("layer", "set", name, rect, "scale=2"), ("text", "add", name, "wait; #facade L1", "--box", "5,5,50,20"),
                 ("checkout", name, "2"), ("shape", "add", name, "--ellipse", "30,10,20,20")]:
        assert server.memery(*args).returncode == 0, args
    open_creation(driver, server, name)
    driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="history"]').click()
    rows = wait(driver, lambda d: [r.text for r in d.find_elements(By.CSS_SELECTOR, "#history li")] if len(d.find_elements(By.CSS_SELECTOR, "#history li")) == 5 else None,
                what="the history's five rows")
    rows = {int(r.split(" ")[0][1:]): r for r in rows}
    ellipse = max(rows)  # after the checkout's own event
    # On the branch gone back from, History still names the rectangle by what it was (the
    # ellipse now has its label, L1, on the other branch), and a change of its transform
    # says what it may have been; people's own words stay as they wrote them; the canvas's
    # colour is a word.
    assert rows[4] == "#4 moved or resized the rectangle", rows
    assert rows[3] == "#3 added a rectangle (20x10)", rows
    assert rows[5] == '#5 added a text box "WAIT; #FACADE L1"' or rows[5] == '#5 added a text box "wait; #facade L1"', rows
    assert rows[ellipse].startswith(f"#{ellipse} · shown now · added an ellipse"), rows
    assert rows[2].startswith("#2 created") and "(white)" in rows[2] and "#ffffff" not in rows[2], rows


def test_a_note_or_an_offer_beside_undo_moves_nothing_on_the_picture(device, server):
    kind, driver = device
    name = f"steady-{kind}"
    assert server.memery("new", name, "--canvas", "300x200", "--background", "#3366cc").returncode == 0
    # A rectangle reaching past the left edge: the page offers to grow the canvas for it.
    assert server.memery("shape", "add", name, "--rect", "-40,20,80,40").returncode == 0
    rect = show(server, name)["layers"][-1]["id"]
    open_creation(driver, server, name)
    open_sheet(driver, "filters")
    where = lambda: driver.execute_script("const r = document.getElementById('picture').getBoundingClientRect(); return [r.top, r.height]")
    before = where()
    choice = driver.find_element(By.ID, "filter-choice")
    driver.execute_script("arguments[0].value = 'org.memery.sepia'; arguments[0].dispatchEvent(new Event('change'))", choice)
    wait(driver, lambda d: d.find_element(By.ID, "preview-note").is_displayed(), what="the preview's note")
    # As after a drag: the layer still chosen, so Remove is in the row too.
    driver.execute_script("window.memery.select(arguments[0]); window.memery.room.consider(arguments[0])", rect)
    assert driver.find_element(By.ID, "remove-chosen").is_displayed()
    offer = wait(driver, lambda d: d.find_element(By.ID, "grow-canvas") if d.find_element(By.ID, "grow-canvas").is_displayed() else None, what="the offer")
    assert offer.text == "Grow the canvas to fit the shape"
    assert where() == before, (where(), before)
    undo = driver.find_element(By.ID, "undo").rect
    for element in (driver.find_element(By.ID, "preview-note"), offer):
        box = element.rect
        assert box["height"] <= undo["height"] + 1 and box["x"] + box["width"] <= driver.execute_script("return innerWidth"), (element.get_attribute("id"), box)
        assert box["width"] >= 90, ("each has room for words", element.get_attribute("id"), box)
    driver.save_screenshot(str(SHOTS / f"editor-notes-{kind}.png"))
    open_sheet(driver, "text")


def test_a_caption_typed_above_a_phones_keyboard_leaves_the_picture_large(device, server):
    kind, driver = device
    if kind != "phone":
        pytest.skip("a phone's keyboard")
    assert server.memery("new", "keyboard", "--image", str(EXAMPLE)).returncode == 0
    assert server.memery("text", "keyboard", "--top", "picture in view").returncode == 0
    open_creation(driver, server, "keyboard")
    # The keyboard open: the page (interactive-widget=resizes-content) has 450 px of 844.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 450, "deviceScaleFactor": 3, "mobile": True})
    width = lambda: driver.execute_script("return document.getElementById('picture').getBoundingClientRect().width")
    wait(driver, lambda d: d.execute_script("return innerHeight") == 450, what="the page above the keyboard")
    # Fitted again into the smaller stage (a resize observer does it a frame or more later).
    inside = """const p = document.getElementById('picture').getBoundingClientRect(), a = document.getElementById('stage-area').getBoundingClientRect();
      return p.width > 0 && p.top >= a.top - 0.5 && p.bottom <= a.bottom + 0.5 && p.left >= a.left - 0.5 && p.right <= a.right + 0.5"""
    wait(driver, lambda d: d.execute_script(inside), what="the picture fitted above the keyboard")
    crowded = width()
    top = driver.find_element(By.ID, "top-caption")
    top.click()
    # The row above the picture and the rest of the sheet step aside while the field is typed in.
    wait(driver, lambda d: not d.find_element(By.ID, "undo").is_displayed(), what="the row above the picture out of the way")
    assert not driver.find_element(By.ID, "style-panel").is_displayed() and driver.find_element(By.ID, "bottom-caption").is_displayed()
    assert driver.find_element(By.CSS_SELECTOR, ".tool-bar").is_displayed(), "the next task a tap away"
    wait(driver, lambda d: width() >= 2 * crowded, what=f"the picture at least twice as wide as {crowded:.0f} px")
    check_picture(driver, "a caption typed above the keyboard")
    driver.save_screenshot(str(SHOTS / "editor-keyboard-phone.png"))
    # Enter is the keyboard's Done: the words are stored and the field left.
    events = show(server, "keyboard")["events"]
    top.send_keys(" too", Keys.ENTER)
    wait(driver, lambda d: d.find_element(By.ID, "undo").is_displayed(), what="the row above the picture back")
    settle(driver, server, "keyboard", events + 1)
    assert next(l["text"] for l in show(server, "keyboard")["layers"] if l.get("role") == "top") == "picture in view too"


def test_what_a_walk_through_found_said_and_done_as_a_person_expects(device, server):
    kind, driver = device
    name = f"walked-{kind}"
    assert server.memery("new", name, "--image", str(EXAMPLE)).returncode == 0
    for args in [("image", "add", name, "--sticker", "deal-with-it", "--scale", "0.3"), ("text", "add", name, "SIDE", "--box", "20,20,160,60"),
                 ("filter", "apply", name, "org.memery.deep-fry")]:
        assert server.memery(*args).returncode == 0, args
    sticker, box = show(server, name)["layers"][-2:]
    assert server.memery("filter", "apply", name, "org.memery.grayscale", "--layer", sticker["id"]).returncode == 0
    assert server.memery("filter", "set", name, "1", "amount=0.3").returncode == 0
    events = open_creation(driver, server, name)
    texts = lambda css: driver.execute_script("return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent)", css)
    # A bundled sticker is named as adding it named it, in the layers and in the filter list.
    wait(driver, lambda d: "sticker: deal with it" in texts("#layers li button:first-child"), what="the sticker named in the layers")
    open_sheet(driver, "filters")
    assert "Grayscale on the deal with it sticker" in texts("#applied-filters li > span"), texts("#applied-filters li > span")
    # History names the filter whose settings changed.
    open_sheet(driver, "history")
    rows = wait(driver, lambda d: texts("#history li") or None, what="the history")
    assert any(r.endswith("changed the settings of Deep fry") for r in rows), rows
    # Remove is beside Undo while a layer is chosen, whichever sheet is open.
    open_sheet(driver, "stickers")
    remove = driver.find_element(By.ID, "remove-chosen")
    assert not remove.is_displayed(), "nothing chosen, nothing to remove"
    driver.execute_script("window.memery.select(arguments[0])", sticker["id"])
    wait(driver, lambda d: remove.is_displayed(), what="Remove shown for the chosen sticker")
    assert remove.get_attribute("aria-label") == "Remove the deal with it sticker"
    remove.click()
    settle(driver, server, name, events + 1)
    assert [l["id"] for l in show(server, name)["layers"]].count(sticker["id"]) == 0
    assert driver.find_element(By.ID, "status").text == "removed the deal with it sticker (Undo brings it back)"
    assert not remove.is_displayed()
    # A tap on the space around the picture lets the chosen layer go.
    driver.execute_script("window.memery.select(arguments[0])", box["id"])
    wait(driver, lambda d: d.find_element(By.ID, "selection").is_displayed(), what="the box chosen")
    area = driver.find_element(By.ID, "stage-area").rect
    picture = driver.find_element(By.ID, "picture").rect
    if kind == "phone":
        touch(driver, area["x"] + 6, picture["y"] - 8)
    else:
        click = ActionBuilder(driver)
        click.pointer_action.move_to_location(round(area["x"] + 6), round(picture["y"] - 8)).click()
        click.perform()
    wait(driver, lambda d: not d.find_element(By.ID, "selection").is_displayed(), what="nothing chosen after a tap beside the picture")
    # A text box emptied is removed, as an emptied caption is.
    driver.execute_script("window.memery.select(arguments[0]); window.memery.stage.editText(arguments[0])", box["id"])
    field = wait(driver, lambda d: d.find_element(By.ID, "inline-text") if d.find_element(By.ID, "inline-text").is_displayed() else None, what="the box's words")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE, Keys.ENTER)
    settle(driver, server, name, events + 2)
    assert all(l["id"] != box["id"] for l in show(server, name)["layers"])
    assert driver.find_element(By.ID, "status").text == "removed “SIDE”: its words were emptied"
    # A refusal said in red goes once the person moves on to something else.
    open_sheet(driver, "filters")
    driver.find_element(By.ID, "filter-apply").click()
    wait(driver, lambda d: d.find_element(By.ID, "status").text == "choose a filter first", what="the refusal")
    assert driver.find_element(By.ID, "status").get_attribute("class") == "error"
    choice = driver.find_element(By.ID, "filter-choice")
    driver.execute_script("arguments[0].value = 'org.memery.sepia'; arguments[0].dispatchEvent(new Event('change'))", choice)
    wait(driver, lambda d: d.find_element(By.ID, "preview-note").is_displayed(), what="the preview")
    assert driver.find_element(By.ID, "status").get_attribute("class") != "error", driver.find_element(By.ID, "status").text
    open_sheet(driver, "text")
    # Renamed, the page stays where it was and says so.
    open_sheet(driver, "export")
    renamed = f"{name}-renamed"
    driver.execute_script("window.prompt = () => arguments[0]", renamed)
    driver.find_element(By.ID, "rename").click()
    wait(driver, lambda d: d.find_element(By.ID, "creation-title").text == renamed, what="the new name")
    assert driver.find_element(By.CSS_SELECTOR, '.sheet-page[data-sheet="export"]').is_displayed(), "still on Export"
    assert driver.find_element(By.ID, "status").text == f"renamed to {renamed}"


def test_random_on_an_empty_gallery_says_why_nothing_opened(server):
    driver = chromium(False)
    try:
        driver.get(server.url)
        wait(driver, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
        driver.find_element(By.ID, "search").send_keys("no such creation anywhere")
        wait(driver, lambda d: d.find_element(By.ID, "gallery-empty").is_displayed(), what="nothing found")
        driver.find_element(By.ID, "random").click()
        wait(driver, lambda d: d.find_element(By.ID, "status").text == "no creation here to pick from: clear the search or the ticks above", what="why nothing opened")
    finally:
        driver.quit()


def test_escape_in_a_caption_takes_the_typed_words_back(device, server):
    kind, driver = device
    name = f"escape-{kind}"
    assert server.memery("new", name, "--canvas", "120x80").returncode == 0
    assert server.memery("text", name, "--top", "KEPT").returncode == 0
    events = open_creation(driver, server, name)
    # Every edit the page sends, counted: words sent again unchanged would store nothing to see.
    driver.execute_script("""window.sentEdits = 0; const f = window.fetch;
      window.fetch = (url, ...rest) => { if (String(url).endsWith('/edits')) window.sentEdits++; return f(url, ...rest); };""")
    top = driver.find_element(By.ID, "top-caption")
    top.click()
    top.send_keys(" AND MORE")
    wait(driver, lambda d: "/text-preview?" in d.find_element(By.ID, "picture").get_attribute("src"), what="the words previewed")
    top.send_keys(Keys.ESCAPE)
    assert top.get_attribute("value") == "KEPT"
    wait(driver, lambda d: "/render?" in d.find_element(By.ID, "picture").get_attribute("src"), what="the stored picture again")
    assert driver.find_element(By.ID, "status").text == "top caption left as it was"
    assert driver.execute_script("return window.sentEdits") == 0
    # An edit after it is the only one stored: leaving the field sent nothing.
    bottom = driver.find_element(By.ID, "bottom-caption")
    bottom.click()
    bottom.send_keys("AFTER", Keys.ENTER)
    settle(driver, server, name, events + 1)
    captions = {l["role"]: l["text"] for l in show(server, name)["layers"] if l.get("role")}
    assert captions == {"top": "KEPT", "bottom": "AFTER"}, captions


def test_the_history_is_sent_as_what_came_after_the_part_a_page_has(server):
    for args in [("new", "diffed", "--canvas", "60x40"), ("text", "diffed", "--top", "one"), ("text", "diffed", "--top", "two")]:
        assert server.memery(*args).returncode == 0, args
    status, whole = server.json("GET", "/api/creations/diffed/history")
    assert status == 200 and "since" not in whole
    tip = max(whole["nodes"], key=lambda n: n["version"])
    assert server.memery("text", "diffed", "--top", "three").returncode == 0
    assert server.memery("undo", "diffed").returncode == 0
    status, part = server.json("GET", f"/api/creations/diffed/history?since={whole['events']}&tip={whole['tip']}")
    assert status == 200 and part["since"] == whole["events"], part
    assert [n["summary"] for n in part["nodes"]] == ['edited L1: text "three"'] and len(part["moves"]) == 1, part
    assert part["nodes"][0]["parent"] == tip["version"] and part["head"] == tip["version"]
    # A tip that is not where the page thinks: the whole tree again.
    status, again = server.json("GET", f"/api/creations/diffed/history?since={whole['events']}&tip=0")
    assert status == 200 and "since" not in again and len(again["nodes"]) == len(whole["nodes"]) + 1
    # A tip from the part after: the next part starts there.
    status, none = server.json("GET", f"/api/creations/diffed/history?since={part['events']}&tip={part['tip']}")
    assert status == 200 and none["since"] == part["events"] and none["nodes"] == [] and none["moves"] == []
    status, _ = server.json("GET", "/api/creations/diffed/history?since=-1&tip=x")
    assert status == 400


def test_an_applied_filter_keeps_settings_that_can_be_changed(device, server):
    kind, driver = device
    name = f"fried-{kind}"
    assert server.memery("new", name, "--canvas", "80x60", "--background", "#3366cc").returncode == 0
    assert server.memery("filter", "apply", name, "org.memery.deep-fry").returncode == 0
    events = open_creation(driver, server, name)
    driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="filters"]').click()
    # The click scrolls the button to the sheet's foot, as a person scrolls to reach it; the
    # settings open below it and are brought into the sheet, not left under its edge.
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '#applied-filters [aria-label^="Change the settings of "]'), what="the applied filter").click()
    amount = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '.filter-settings [data-param="amount"]'), what="its settings")
    inside = "const s = document.getElementById('sheet').getBoundingClientRect(), r = arguments[0].getBoundingClientRect(); return r.top >= s.top && r.bottom <= s.bottom"
    wait(driver, lambda d: d.execute_script(inside, amount), what="the settings inside the sheet")
    assert amount.get_attribute("value") == "0.7", "the settings shown are the ones applied"
    # Dragged, not yet let go: the picture shows the setting, and nothing is stored.
    driver.execute_script("arguments[0].value = '0.3'; arguments[0].dispatchEvent(new Event('input'))", amount)
    wait(driver, lambda d: "/preview?position=1&" in d.find_element(By.ID, "picture").get_attribute("src")
         and "set=amount%3D0.3" in d.find_element(By.ID, "picture").get_attribute("src"), what="the setting previewed as it is dragged")
    wait(driver, lambda d: d.execute_script("const i = document.getElementById('picture'); return i.complete && i.naturalWidth > 0"), what="the preview drawn")
    assert show(server, name)["events"] == events
    driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", amount)
    settle(driver, server, name, events + 1)
    assert show(server, name)["filters"][0]["params"]["amount"] == "0.3"
    seed = driver.find_element(By.CSS_SELECTOR, '.filter-settings [data-param="seed"]')
    assert seed.get_attribute("value") == "42", "the other settings stay as they were, shown still"


def test_a_meme_from_an_album_picture_takes_five_taps_on_a_phone(device, server):
    kind, driver = device
    if kind != "phone":
        pytest.skip("the phone's task")
    driver.get(server.base + "/")
    wait(driver, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
    before = {c["name"] for c in server.json("GET", "/api/creations")[1]["creations"]}
    taps = 1  # "New from a picture…" opens the phone's picker; the test hands the file to it
    assert driver.find_element(By.ID, "choose-picture").is_displayed()
    driver.find_element(By.ID, "upload").send_keys(str(EXAMPLE))
    wait(driver, lambda d: d.find_element(By.ID, "editor-view").is_displayed(), what="the editor")
    name = wait(driver, lambda d: next(iter({c["name"] for c in server.json("GET", "/api/creations")[1]["creations"]} - before), None),
                what="the new creation")
    for element_id, words in [("top-caption", "one does not simply"), ("bottom-caption", "tap five times")]:
        field = wait(driver, lambda d: d.find_element(By.ID, element_id) if d.find_element(By.ID, element_id).is_displayed() else None, what=element_id)
        field.click()
        field.send_keys(words)
        taps += 1
    driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="export"]').click()
    driver.find_element(By.ID, "share").click()
    taps += 2
    wait(driver, lambda d: "downloaded" in d.find_element(By.ID, "status").text or "shared" in d.find_element(By.ID, "status").text,
         what="what became of the picture")
    assert taps <= 5
    layers = {l["role"]: l["text"] for l in show(server, name)["layers"] if l.get("role") in ("top", "bottom")}
    assert layers == {"top": "one does not simply", "bottom": "tap five times"}, layers


def test_the_picture_zooms_with_the_wheel_keys_and_two_fingers(device, server):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
    kind, driver = device
    events = open_creation(driver, server, "layout")
    picture = driver.find_element(By.ID, "picture")
    fit = picture.rect["width"]
    zoom = lambda: float(driver.find_element(By.ID, "stage").get_attribute("data-zoom") or 1)
    if kind == "desktop":
        # The wheel zooms about the pointer: the bottom caption stays under it, and a click
        # there still reaches that canvas point (the caption is selected).
        state = show(server, "layout")
        bottom = next(l for l in state["layers"] if l.get("role") == "bottom")
        before = driver.execute_script("const r = document.getElementById('picture').getBoundingClientRect(); return {x: r.left, y: r.top, width: r.width}")
        scale = before["width"] / state["width"]
        x, y = round(before["x"] + bottom["transform"]["x"] * scale), round(before["y"] + bottom["transform"]["y"] * scale)
        ActionChains(driver).scroll_from_origin(ScrollOrigin.from_viewport(x, y), 0, -300).perform()
        wait(driver, lambda d: zoom() > 1.5, what="zoomed in by the wheel")
        rect = driver.execute_script("const r = document.getElementById('picture').getBoundingClientRect(); return {x: r.left, y: r.top, width: r.width}")
        assert rect["width"] > fit * 1.5, (rect, fit)
        scale = rect["width"] / state["width"]
        assert abs(rect["x"] + bottom["transform"]["x"] * scale - x) < 2 and abs(rect["y"] + bottom["transform"]["y"] * scale - y) < 2, "zoomed about the pointer"
        click = ActionBuilder(driver)
        click.pointer_action.move_to_location(x, y).click()
        click.perform()
        wait(driver, lambda d: d.execute_script("return window.memery.selected") == bottom["id"], what="the bottom caption selected while zoomed")
        driver.execute_script("window.memery.select(null)")
        driver.find_element(By.TAG_NAME, "body").send_keys("0")
        wait(driver, lambda d: zoom() == 1, what="fit again with 0")
        driver.find_element(By.TAG_NAME, "body").send_keys("+")
        wait(driver, lambda d: zoom() > 1.2, what="zoomed in with +")
    else:
        stage = driver.find_element(By.ID, "stage").rect
        cx, cy = stage["x"] + stage["width"] / 2, stage["y"] + stage["height"] / 2
        two_fingers(driver, [(cx - 40 - 14 * step, cy) for step in range(7)], [(cx + 40 + 14 * step, cy) for step in range(7)], 40)
        wait(driver, lambda d: zoom() > 1.5, what="zoomed in by a pinch")
        assert show(server, "layout")["events"] == events, "a pinch is not an edit"
        # Further, from 30 px apart to 160 (past 3x the picture once flew off the screen):
        # it still covers its area's middle, and "Fit the picture" brings the whole back.
        driver.execute_script("window.memery.stage.resetZoom()")
        two_fingers(driver, [(cx - 15 - 5 * step, cy) for step in range(14)], [(cx + 15 + 5 * step, cy) for step in range(14)], 30)
        wait(driver, lambda d: zoom() > 4, what="zoomed in past 4x by a pinch")
        middle = driver.execute_script("""const a = document.getElementById('stage-area').getBoundingClientRect();
            const p = document.getElementById('picture').getBoundingClientRect(), x = a.left + a.width / 2, y = a.top + a.height / 2;
            return p.left <= x && x <= p.right && p.top <= y && y <= p.bottom""")
        assert middle, "the zoomed picture left its area"
        # Pinched about the picture's middle, it grew about it: its middle did not move.
        centre = driver.execute_script("const p = document.getElementById('picture').getBoundingClientRect(); return [p.left + p.width / 2, p.top + p.height / 2]")
        assert abs(centre[0] - cx) < 3 and abs(centre[1] - cy) < 3, (centre, cx, cy)
        assert driver.find_element(By.ID, "zoom-fit").is_displayed(), "the way back to the whole picture shows"
    bar = driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="filters"]')
    covered = driver.execute_script("const r = arguments[0].getBoundingClientRect(); const e = document.elementFromPoint(r.left + r.width / 2, r.top + 4); return !(e && arguments[0].contains(e))", bar)
    assert not covered, "the zoomed picture covers the tool bar"
    if kind == "desktop":
        # Opening a tool shows the whole picture again (the same code runs for a tap; a tap
        # emulated right after an emulated pinch is not always made a click by Chromium).
        bar.click()
        wait(driver, lambda d: zoom() == 1, what="fit when a tool opens")
        check_picture(driver, f"{kind}, after zooming, a tool opened")
        driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="text"]').click()
    else:
        # Clicked by script: a tap emulated right after an emulated pinch is not always a click.
        driver.execute_script("document.getElementById('zoom-fit').click()")
        wait(driver, lambda d: zoom() == 1 and not d.find_element(By.ID, "zoom-fit").is_displayed(), what="fit by its button")
        check_picture(driver, f"{kind}, fit again by its button")


def test_a_zoomed_picture_is_drawn_again_at_the_size_it_shows(device, server):
    kind, driver = device
    if kind != "desktop":
        pytest.skip("the keys zoom on a desktop; a pinch runs the same code")
    assert server.memery("new", "zoomy", "--canvas", "1600x1000", "--background", "#336699").returncode == 0
    assert server.memery("text", "zoomy", "--top", "sharp when zoomed").returncode == 0
    open_creation(driver, server, "zoomy")
    natural = lambda: driver.execute_script("const i = document.getElementById('picture'); return i.complete ? i.naturalWidth : 0")
    fit = natural()
    assert 0 < fit < 1200, fit
    body = driver.find_element(By.TAG_NAME, "body")
    for _ in range(3):
        body.send_keys("+")
    wait(driver, lambda d: natural() > fit * 1.5, what="the picture drawn again, wider")
    assert natural() <= 1600, "never wider than the canvas"
    body.send_keys("0")
    wait(driver, lambda d: natural() == fit, what="back to the fitted width")


def test_a_strip_shows_the_filters_on_this_picture(device, server):
    kind, driver = device
    open_creation(driver, server, "layout")
    open_sheet(driver, "filters")
    thumbs = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#filter-strip .filter-thumb") or None, what="the strip")
    assert len(thumbs) >= 8, len(thumbs)
    wait(driver, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#filter-strip img')].slice(0, 3).every((i) => i.complete && i.naturalWidth > 0)"), what="the first previews")
    check_picture(driver, f"{kind}, the filter strip shown")
    sepia = driver.find_element(By.CSS_SELECTOR, '#filter-strip [data-filter="org.memery.sepia"]')
    driver.execute_script("arguments[0].scrollIntoView({inline: 'center', block: 'nearest'})", sepia)
    sepia.click()
    wait(driver, lambda d: d.find_element(By.ID, "filter-choice").get_attribute("value") == "org.memery.sepia", what="sepia chosen")
    wait(driver, lambda d: d.find_element(By.ID, "preview-note").is_displayed(), what="the preview's note")
    driver.save_screenshot(str(SHOTS / f"editor-filter-strip-{kind}.png"))
    driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="text"]').click()


def test_the_canvas_grows_from_the_sheet_and_to_hold_a_layer_dragged_past_an_edge(device, server):
    kind, driver = device
    name = f"roomy-{kind}"
    assert server.memery("new", name, "--image", str(EXAMPLE)).returncode == 0  # 451x300
    assert server.memery("text", name, "--bottom", "below").returncode == 0
    assert server.memery("shape", "add", name, "--rect", "300,100,100,80", "--fill", "#00ff00").returncode == 0
    events = open_creation(driver, server, name)
    open_sheet(driver, "crop")
    # Room below: a quarter of the height unless pixels are given, in the colour chosen.
    reveal(driver, "room-bottom")
    driver.find_element(By.ID, "room-bottom").click()
    settle(driver, server, name, events + 1)
    state = show(server, name)
    assert (state["width"], state["height"]) == (451, 375), state
    bottom = next(l for l in state["layers"] if l.get("role") == "bottom")
    assert bottom["box"]["y"] + bottom["box"]["h"] > 355, "the bottom caption re-fits the taller canvas"
    check_picture(driver, f"{kind}, after room was added")
    # Nothing, or less, is refused in words, not replaced by the default.
    for nothing in ["0", "-20"]:
        driver.execute_script("const f = document.getElementById('room-size'); f.value = arguments[0]; f.dispatchEvent(new Event('input'))", nothing)
        driver.find_element(By.ID, "room-left").click()
        wait(driver, lambda d: "1 or more" in d.find_element(By.ID, "status").text, what="the refusal of " + nothing)
        assert show(server, name)["events"] == events + 1
    driver.execute_script("const f = document.getElementById('room-size'); f.value = '40'; f.dispatchEvent(new Event('input'))")
    driver.find_element(By.ID, "room-left").click()
    settle(driver, server, name, events + 2)
    assert show(server, name)["width"] == 491
    driver.save_screenshot(str(SHOTS / f"editor-room-{kind}.png"))
    # A blank canvas keeps its own colour when no other is picked: room is never painted white unasked.
    blue = f"blue-{kind}"
    assert server.memery("new", blue, "--canvas", "300x200", "--background", "#2040ff").returncode == 0
    blue_events = open_creation(driver, server, blue)
    open_sheet(driver, "crop")
    driver.find_element(By.ID, "room-top").click()
    settle(driver, server, blue, blue_events + 1)
    assert show(server, blue)["background"] == "#2040ff" and show(server, blue)["height"] == 240
    open_creation(driver, server, name)
    open_sheet(driver, "crop")  # another creation opens on Text
    if kind == "desktop":
        # Drag the rectangle 150 canvas px to the right: it hangs past the edge, and the page
        # offers to grow the canvas by exactly that much.
        rect = next(l for l in show(server, name)["layers"] if l["kind"] == "shape")
        picture = driver.find_element(By.ID, "picture")
        ratio = show(server, name)["width"] / picture.size["width"]
        x = picture.rect["x"] + rect["transform"]["x"] / ratio
        y = picture.rect["y"] + rect["transform"]["y"] / ratio
        actions = ActionBuilder(driver)
        actions.pointer_action.move_to_location(round(x), round(y)).pointer_down().pause(0.6)
        for step in range(1, 6):
            actions.pointer_action.move_to_location(round(x + 150 / ratio * step / 5), round(y))
        actions.pointer_action.pointer_up()
        actions.perform()
        settle(driver, server, name, events + 3)
        moved = next(l for l in show(server, name)["layers"] if l["id"] == rect["id"])
        reach = moved["box"]["x"] + moved["box"]["w"] - 491
        assert reach > 50, moved
        offer = driver.find_element(By.ID, "grow-canvas")
        wait(driver, lambda d: offer.is_displayed(), what="the offer to grow the canvas")
        assert offer.text == "Grow the canvas to fit the shape" and offer.get_attribute("title").startswith("the rectangle reaches past the edge")
        offer.click()
        settle(driver, server, name, events + 4)
        grown = show(server, name)
        assert grown["width"] == 491 + int(-(-reach // 1)), (grown["width"], reach)
        assert not offer.is_displayed(), "the offer goes once taken"
        # Fit to content trims the room the photo and the rectangle do not use.
        driver.find_element(By.ID, "canvas-fit").click()
        settle(driver, server, name, events + 5)
        fitted = show(server, name)
        assert fitted["height"] == 300 and fitted["width"] == grown["width"] - 40, fitted
        check_picture(driver, "desktop, after fit to content")


def test_quality_shows_only_for_the_formats_it_changes(device, server):
    kind, driver = device
    if kind != "desktop":
        pytest.skip("once is enough")
    open_creation(driver, server, "layout")
    open_sheet(driver, "export")
    label = driver.find_element(By.ID, "export-quality-label")
    assert not label.is_displayed(), "PNG has no quality"
    for format, shown in [("jpeg", True), ("webp", True), ("gif", False), ("png", False)]:
        driver.execute_script("const s = document.getElementById('export-format'); s.value = arguments[0]; s.dispatchEvent(new Event('input'))", format)
        assert label.is_displayed() == shown, format


def test_a_quality_out_of_range_is_said_and_never_downloaded_as_an_error(device, server):
    # A typed quality of 150 made Download fetch the engine's 400 as the picture, and Share
    # offer it as a file; hidden by choosing PNG, it made every PNG download refused too.
    kind, driver = device
    open_creation(driver, server, "layout")
    open_sheet(driver, "export")
    choose = "const s = document.getElementById('export-format'); s.value = arguments[0]; s.dispatchEvent(new Event('input'))"
    driver.execute_script(choose, "jpeg")
    quality, link = driver.find_element(By.ID, "export-quality"), driver.find_element(By.ID, "export-link")
    quality.clear()
    quality.send_keys("150")
    assert link.get_attribute("aria-disabled") == "true" and quality.get_attribute("aria-invalid") == "true"
    for press in ["export-link", "share"]:
        driver.execute_script("document.getElementById('status').textContent = ''")
        driver.execute_script("arguments[0].click()", driver.find_element(By.ID, press))
        wait(driver, lambda d: "quality is a whole number from 1 to 100" in d.find_element(By.ID, "status").text and "150" in d.find_element(By.ID, "status").text,
             what=f"{press} saying why")
        assert "downloaded" not in driver.find_element(By.ID, "status").text
    # PNG has no quality: what was typed for JPEG is not sent with it.
    driver.execute_script(choose, "png")
    assert link.get_attribute("aria-disabled") == "false"
    status, headers, body = server.request("GET", link.get_attribute("href").removeprefix(server.base))
    assert status == 200 and body[:8] == b"\x89PNG\r\n\x1a\n", (status, body[:80])
    driver.execute_script(choose, "jpeg")
    quality.clear()
    quality.send_keys("80")
    assert link.get_attribute("aria-disabled") == "false" and quality.get_attribute("aria-invalid") == "false"
    assert "quality=80" in link.get_attribute("href")


def test_each_sheet_opens_at_its_top(device, server):
    kind, driver = device
    if kind != "phone":
        pytest.skip("the side panel on a desktop scrolls the same way; once is enough")
    open_creation(driver, server, "layout")
    open_sheet(driver, "text")
    driver.execute_script("document.getElementById('sheet').scrollTop = 400")
    assert driver.execute_script("return document.getElementById('sheet').scrollTop") > 0, "the text sheet scrolls on a phone"
    open_sheet(driver, "stickers")
    assert driver.execute_script("return document.getElementById('sheet').scrollTop") == 0
    assert driver.find_element(By.ID, "emoji-picker").is_displayed()


def test_an_emoji_is_a_tap_away_and_any_other_can_be_typed(device, server):
    kind, driver = device
    name = f"emoji-{kind}"
    assert server.memery("new", name, "--image", str(EXAMPLE)).returncode == 0
    events = open_creation(driver, server, name)
    open_sheet(driver, "stickers")
    driver.find_element(By.CSS_SELECTOR, '#emoji-picker button[aria-label="Add 😂"]').click()
    settle(driver, server, name, events + 1)
    field = driver.find_element(By.ID, "emoji-text")
    field.send_keys("🦆")
    driver.find_element(By.CSS_SELECTOR, "#emoji-any button[type=submit]").click()
    settle(driver, server, name, events + 2)
    images = [l for l in show(server, name)["layers"] if l["kind"] == "image"]
    assert [i["image"]["sourceName"] for i in images] == ["emoji 😂", "emoji 🦆"], images
    first, second = images
    assert first["box"]["w"] < 451 / 2 and (first["box"]["x"], first["box"]["y"]) != (second["box"]["x"], second["box"]["y"]), images
    field.send_keys("duck")
    driver.find_element(By.CSS_SELECTOR, "#emoji-any button[type=submit]").click()
    wait(driver, lambda d: "not an emoji" in d.find_element(By.ID, "status").text, what="the refusal")
    assert field.get_attribute("value") == "duck", "what was refused stays in the field to be mended"
    assert show(server, name)["events"] == events + 2
    # The stickers that ship with Memery: pictures to tap, from the first day.
    shelf = driver.find_elements(By.CSS_SELECTOR, "#bundled-stickers button")
    assert [b.get_attribute("aria-label") for b in shelf] == [
        "Add the deal with it sticker", "Add the red arrow sticker", "Add the red circle sticker", "Add the speech bubble sticker"]
    assert all(driver.execute_script("return arguments[0].querySelector('img').naturalWidth", b) > 0 for b in shelf), "each shows its picture"
    shelf[2].click()
    settle(driver, server, name, events + 3)
    circle = [l for l in show(server, name)["layers"] if l["kind"] == "image"][-1]
    assert circle["image"]["sourceName"] == "red-circle.png" and abs(circle["box"]["w"] - 451 / 3) < 2, circle
    check_picture(driver, f"{kind}, emoji added")
    driver.save_screenshot(str(SHOTS / f"editor-emoji-{kind}.png"))


def test_the_filter_list_offers_memerys_own_and_frei0rs_on_request(device, server):
    kind, driver = device
    if kind != "desktop":
        pytest.skip("once is enough")
    open_creation(driver, server, "layout")
    open_sheet(driver, "filters")
    options = lambda: driver.execute_script("return [...document.getElementById('filter-choice').options].map((o) => o.value)")
    wait(driver, lambda d: len(options()) > 5, what="the filter list")
    own = options()
    assert "org.memery.sepia" in own and not any(o.startswith("frei0r.") for o in own), own
    driver.find_element(By.ID, "filters-all").click()
    if any(f["origin"] == "frei0r" for f in server.json("GET", "/api/filters")[1]["filters"]):
        wait(driver, lambda d: any(o.startswith("frei0r.") for o in options()), what="frei0r's filters listed")


def test_a_new_text_box_is_typed_into_and_a_second_tap_changes_its_words(device, server):
    kind, driver = device
    if kind != "phone":
        pytest.skip("the taps run at the phone's size")
    name = "words-by-tap"
    assert server.memery("new", name, "--image", str(EXAMPLE)).returncode == 0
    events = open_creation(driver, server, name)
    open_sheet(driver, "text")
    driver.find_element(By.ID, "add-text").click()
    # The new box's words open at once, chosen, so that typing replaces them.
    field = wait(driver, lambda d: d.find_element(By.ID, "inline-text") if d.find_element(By.ID, "inline-text").is_displayed() else None,
                 what="the new box's words open")
    assert driver.execute_script("const f = arguments[0]; return [document.activeElement === f, f.selectionStart, f.selectionEnd, f.value]",
                                 field) == [True, 0, 9, "Your text"]
    # As they are typed, the picture shows the words in the box's own look, and the field
    # sits beside the box, not over it.
    field.send_keys("first words")
    wait(driver, lambda d: "/text-preview?" in d.find_element(By.ID, "picture").get_attribute("src")
         and "first%20words" in d.find_element(By.ID, "picture").get_attribute("src"), what="the box's words drawn as typed")
    typed = show(server, name)["layers"][-1]
    bx, by = on_screen(driver, show(server, name), typed)
    ratio = show(server, name)["width"] / driver.find_element(By.ID, "picture").size["width"]
    half = typed["box"]["h"] / ratio / 2
    f = field.rect
    assert f["y"] >= by + half - 1 or f["y"] + f["height"] <= by - half + 1, ("the field covers the words", f, by, half)
    driver.save_screenshot(str(SHOTS / "editor-box-typing-phone.png"))
    # Emptied to be typed again (words the engine would refuse): the stored picture, whole.
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE)
    wait(driver, lambda d: "/render?" in d.find_element(By.ID, "picture").get_attribute("src") and d.execute_script(
        "const i = document.getElementById('picture'); return i.complete && i.naturalWidth > 0"), what="the stored picture while the box is empty")
    field.send_keys("first words\n")
    settle(driver, server, name, events + 2)
    box = show(server, name)["layers"][-1]
    assert (box["kind"], box["text"]) == ("text", "first words"), box
    # Chosen already: one tap opens its words, a quick one too (30 ms, released before the
    # engine could answer where it fell). A finger's wobble of 3 px is a tap, not a move.
    state = show(server, name)
    x, y = on_screen(driver, state, box)
    touch(driver, x, y, to=(x + 3, y + 2), hold=0.03)
    wait(driver, lambda d: d.find_element(By.ID, "inline-text").is_displayed(), what="the words open by a tap on the chosen box")
    assert show(server, name)["events"] == events + 2, "the tap moved nothing"
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("second words\n")
    settle(driver, server, name, events + 3)
    assert show(server, name)["layers"][-1]["text"] == "second words"
    # Not chosen: the first tap chooses it (and says how to change its words), the second opens them.
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait(driver, lambda d: not d.find_element(By.ID, "selection").is_displayed(), what="nothing chosen")
    touch(driver, x, y)
    wait(driver, lambda d: d.find_element(By.ID, "selection").is_displayed(), what="the box chosen by a tap")
    assert not driver.find_element(By.ID, "inline-text").is_displayed(), "one tap on a box not chosen only chooses it"
    assert driver.find_element(By.ID, "style-hint").text == "To change its words, tap the text on the picture again."
    touch(driver, x, y, hold=0.03)
    wait(driver, lambda d: d.find_element(By.ID, "inline-text").is_displayed(), what="the words open by the second tap")
    field.send_keys(Keys.ESCAPE)
    assert show(server, name)["events"] == events + 3
    driver.save_screenshot(str(SHOTS / "editor-words-by-tap-phone.png"))


def test_a_photo_added_as_a_sticker_fits_the_picture_and_lands_on_a_spot(device, server, tmp_path):
    kind, driver = device
    if kind != "desktop":
        pytest.skip("once is enough")
    from PIL import Image
    big = tmp_path / "big photo.png"
    Image.new("RGB", (1800, 1200), (30, 140, 200)).save(big)
    name = "photo-sticker"
    assert server.memery("new", name, "--image", str(EXAMPLE)).returncode == 0
    events = open_creation(driver, server, name)
    open_sheet(driver, "stickers")
    driver.find_element(By.ID, "sticker-upload").send_keys(str(big))
    settle(driver, server, name, events + 1)
    # Twice the canvas's size at scale 1: scaled to fit two fifths of it, its centre on the middle spot.
    photo = show(server, name)["layers"][-1]
    b = photo["box"]
    assert photo["kind"] == "image" and abs(b["w"] - 451 * 0.4) < 2 and b["h"] <= 300 * 0.4 + 1, photo
    assert abs(b["x"] + b["w"] / 2 - 451 / 2) < 2 and abs(b["y"] + b["h"] / 2 - 150) < 2, photo
    # The same picture from the garage's list: the same size, on the next spot.
    wait(driver, lambda d: "big photo" in d.find_element(By.ID, "add-sticker").text, what="the photo in the garage's list")
    choice = next(o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#add-sticker option") if "big photo" in o.text)
    driver.execute_script("const s = document.getElementById('add-sticker'); s.value = arguments[0]; s.dispatchEvent(new Event('change'))", choice)
    settle(driver, server, name, events + 2)
    second = show(server, name)["layers"][-1]["box"]
    assert abs(second["w"] - b["w"]) < 1 and (second["x"], second["y"]) != (b["x"], b["y"]), second
    assert 0 <= second["x"] and second["x"] + second["w"] <= 451 and 0 <= second["y"] and second["y"] + second["h"] <= 300, second


def test_another_creation_opens_on_text_not_on_the_last_task(device, server):
    kind, driver = device
    if kind != "phone":
        pytest.skip("once is enough")
    assert server.memery("new", "next-one", "--image", str(EXAMPLE)).returncode == 0
    open_creation(driver, server, "layout")
    open_sheet(driver, "filters")
    driver.execute_script("location.hash = ''")
    wait(driver, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
    driver.execute_script("location.hash = '#/creation/next-one'")
    wait(driver, lambda d: d.find_element(By.ID, "creation-title").text == "next-one", what="the other creation")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '.sheet-page[data-sheet="text"]').is_displayed(), what="the Text sheet")
    assert driver.find_element(By.CSS_SELECTOR, '.tool-bar [data-sheet="text"]').get_attribute("aria-pressed") == "true"
    assert not driver.find_element(By.CSS_SELECTOR, '.sheet-page[data-sheet="filters"]').is_displayed()


def test_history_undo_and_layers_speak_in_words_not_labels(device, server):
    kind, driver = device
    if kind != "desktop":
        pytest.skip("once is enough")
    import re
    name = "wordy"
    for args in [("new", name, "--image", str(EXAMPLE)), ("text", name, "--top", "HI THERE"),
                 ("text", name, "--top", "HELLO AGAIN"),
                 ("shape", "add", name, "--rect", "20,20,60,40"), ("filter", "apply", name, "org.memery.sepia")]:
        assert server.memery(*args).returncode == 0, args
    events = open_creation(driver, server, name)
    labels = re.compile(r"\b[LF]\d+\b")
    texts = lambda css: driver.execute_script("return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent)", css)
    layers = texts("#layers li button:first-child")
    assert layers and not any(labels.search(t) for t in layers), layers
    open_sheet(driver, "history")
    rows = wait(driver, lambda d: texts("#history li") or None, what="the history")
    assert not any(labels.search(r) for r in rows), rows
    assert any("filtered the picture with Sepia" in r for r in rows), rows
    assert any('added the top caption "HI THERE"' in r for r in rows), rows
    # A caption's later edits name it by its place: its words now are not those it had then.
    assert any(r.endswith('edited the top caption: text "HELLO AGAIN"') for r in rows), rows
    # An undo says where it went, in the same words.
    driver.find_element(By.ID, "undo").click()
    settle(driver, server, name, events + 1)
    said = driver.find_element(By.ID, "status").text
    assert said.startswith(f"undone: back to #{events - 1}, the edit that added a rectangle") and not labels.search(said), said
    assert server.memery("redo", name).returncode == 0


def test_undo_and_redo_are_greyed_where_they_would_do_nothing(device, server):
    kind, driver = device
    name = f"moves-{kind}"
    assert server.memery("new", name, "--image", str(EXAMPLE)).returncode == 0
    events = open_creation(driver, server, name)
    greyed = lambda d: [d.find_element(By.ID, b).get_attribute("aria-disabled") == "true" for b in ("undo", "redo")]
    assert greyed(driver) == [True, True]
    opacity = driver.execute_script("return getComputedStyle(document.getElementById('undo')).opacity")
    assert float(opacity) < 0.6, opacity
    # A press says why, and asks the engine nothing.
    driver.find_element(By.ID, "undo").click()
    wait(driver, lambda d: d.find_element(By.ID, "status").text.startswith("nothing to undo"), what="why nothing was undone")
    assert show(server, name)["events"] == events
    # An edit from elsewhere: Undo comes back with it.
    assert server.memery("text", name, "--top", "HELLO").returncode == 0
    wait(driver, lambda d: greyed(d) == [False, True], what="Undo offered after an edit")
    settle(driver, server, name, events + 1)
    driver.find_element(By.ID, "undo").click()
    settle(driver, server, name, events + 2)
    wait(driver, lambda d: greyed(d) == [True, False], what="Redo offered after the undo, Undo greyed at the first edit")
    driver.save_screenshot(str(SHOTS / f"undo-greyed-{kind}.png"))
    driver.find_element(By.ID, "redo").click()
    settle(driver, server, name, events + 3)
    wait(driver, lambda d: greyed(d) == [False, True], what="Redo greyed once redone")
    assert show(server, name)["layers"][0]["text"] == "HELLO"


def test_a_caption_shows_on_the_picture_while_it_is_typed(device, server):
    kind, driver = device
    name = f"typing-{kind}"
    assert server.memery("new", name, "--image", str(EXAMPLE)).returncode == 0
    events = open_creation(driver, server, name)
    stored = driver.find_element(By.ID, "picture").get_attribute("src")
    field = driver.find_element(By.ID, "top-caption")
    field.click()
    field.send_keys("WORDS AS TYPED+")
    # At the pause the picture is the engine's with the words, and nothing is stored yet.
    wait(driver, lambda d: "/text-preview?" in d.find_element(By.ID, "picture").get_attribute("src")
         and "WORDS%20AS%20TYPED%2B" in d.find_element(By.ID, "picture").get_attribute("src"), what="the words on the picture")
    wait(driver, lambda d: d.execute_script("const i = document.getElementById('picture'); return i.complete && i.naturalWidth > 0"),
         what="the preview drawn")
    driver.save_screenshot(str(SHOTS / f"editor-typing-{kind}.png"))
    # Made by the CLI just before the page opened it: the feed's late word of that is no
    # change to the page, and is not said as one.
    assert "changed elsewhere" not in driver.find_element(By.ID, "status").text
    typed = driver.find_element(By.ID, "picture").get_attribute("src")
    assert show(server, name)["events"] == events, "typing stores nothing"
    assert not [layer for layer in show(server, name)["layers"] if layer.get("role") == "top"]
    preview = server.request("GET", typed.replace(server.base, ""))
    assert preview[0] == 200 and preview[2] != server.request("GET", stored.replace(server.base, ""))[2]
    # Enter stores the words as one edit, and its picture is the one the preview showed.
    field.send_keys(Keys.ENTER)
    settle(driver, server, name, events + 1)
    assert [layer["text"] for layer in show(server, name)["layers"] if layer.get("role") == "top"] == ["WORDS AS TYPED+"]
    after = driver.find_element(By.ID, "picture").get_attribute("src")
    assert "/render?" in after
    width = typed.split("width=")[1].split("&")[0]
    assert server.request("GET", f"/api/creations/{name}/render?format=auto&width={width}")[2] == preview[2], \
        "the preview is the picture the edit made"
    # Words the edit would refuse are refused as it would: a place that is not text.
    status, answer = server.json("GET", f"/api/creations/{name}/text-preview?text=hi&layer=nope")
    assert status == 404 or status == 400, (status, answer)
    assert server.json("GET", f"/api/creations/{name}/text-preview?text=hi")[0] == 400
    assert server.json("GET", f"/api/creations/{name}/text-preview?text=hi&caption=middle")[0] == 400


def test_words_typed_and_not_sent_are_kept_when_the_person_leaves(device, server):
    kind, driver = device
    name = f"leaving-{kind}"
    assert server.memery("new", name, "--image", str(EXAMPLE)).returncode == 0
    captions = lambda: {l["role"]: l["text"] for l in show(server, name)["layers"] if l.get("role") in ("top", "bottom")}
    # The gallery's own name, tapped with words in the field: one tap reaches the gallery,
    # and stays there (the edit's answer once sent the page back to the creation).
    open_creation(driver, server, name)
    field = driver.find_element(By.ID, "top-caption")
    field.click()
    field.send_keys("TAPPED HOME")
    driver.find_element(By.ID, "home").click()
    wait(driver, lambda d: captions().get("top") == "TAPPED HOME", what="the words stored")
    time.sleep(0.5)  # the edit's answer has come: the page must not go back to the creation
    assert driver.find_element(By.ID, "gallery-view").is_displayed(), "one tap reaches the gallery"
    assert not driver.find_element(By.ID, "editor-view").is_displayed()
    # Back, from a creation opened from the gallery, with words not sent: they are stored.
    driver.execute_script("location.hash = arguments[0]", f"#/creation/{name}")
    wait(driver, lambda d: d.find_element(By.ID, "top-caption").get_attribute("value") == "TAPPED HOME", what="the creation again")
    field = driver.find_element(By.ID, "bottom-caption")
    field.click()
    field.send_keys("GONE BACK")
    driver.back()
    wait(driver, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
    wait(driver, lambda d: captions() == {"top": "TAPPED HOME", "bottom": "GONE BACK"}, what="the words kept")
    # Emptied and left: the caption goes, and the page says it went.
    driver.execute_script("location.hash = arguments[0]", f"#/creation/{name}")
    field = wait(driver, lambda d: d.find_element(By.ID, "bottom-caption") if d.find_element(By.ID, "bottom-caption").get_attribute("value") == "GONE BACK" else None,
                 what="the creation again")
    field.click()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE, Keys.ENTER)
    wait(driver, lambda d: captions() == {"top": "TAPPED HOME"}, what="the bottom caption removed")
    wait(driver, lambda d: "bottom caption removed" in d.find_element(By.ID, "status").text, what="the removal said")


def test_two_fingers_on_the_chosen_layer_resize_and_turn_it(device, server):
    kind, driver = device
    if kind != "phone":
        pytest.skip("two fingers: the phone's")
    name = "pinchy"
    assert server.memery("new", name, "--image", str(EXAMPLE)).returncode == 0
    assert server.memery("shape", "add", name, "--rect", "175,120,100,60").returncode == 0
    events = open_creation(driver, server, name)
    state = show(server, name)
    shape = next(l for l in state["layers"] if l["kind"] == "shape")
    cx, cy = on_screen(driver, state, shape)
    touch(driver, cx, cy, hold=0.1)
    wait(driver, lambda d: d.find_element(By.ID, "selection").is_displayed(), what="the shape chosen")
    # Apart to three times the distance, and a little turned.
    two_fingers(driver, [(cx - 15 - 5 * step, cy + 2 * step) for step in range(7)], [(cx + 15 + 5 * step, cy - 2 * step) for step in range(7)], 40)
    settle(driver, server, name, events + 1)
    after = next(l for l in show(server, name)["layers"] if l["id"] == shape["id"])["transform"]
    assert after["scale"] > 2.5 * shape["transform"]["scale"], after
    assert -25 < after["rotation"] < -10, after  # the fingers' line turned by about -15°
    assert (after["x"], after["y"]) == (shape["transform"]["x"], shape["transform"]["y"]), "resized where it is, not moved"
    assert driver.execute_script("return window.memery.stage.zoom") == 1, "the layer, not the picture, grew"
    assert "resized the rectangle" in driver.find_element(By.ID, "status").text
