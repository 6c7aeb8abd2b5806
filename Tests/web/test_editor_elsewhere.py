"""What another device, window or command does to the creation a page has open: a rename is
followed (by the creation's id, which no rename changes) and no edit made meanwhile is lost;
a creation moved to the trash from the page says where it went."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import EXAMPLE, reveal
from test_editor import SHOTS, chromium, open_creation, show, wait


def layers_text(server, name):
    return [layer.get("text") for layer in show(server, name)["layers"]]


def test_a_rename_elsewhere_is_followed_and_the_next_edit_kept(server):
    assert server.memery("new", "cat", "--image", EXAMPLE).returncode == 0
    driver = chromium()
    try:
        driver.get(server.url)
        open_creation(driver, server, "cat")
        # Renamed by a command while the page is open: its event stream tells it.
        assert server.memery("rename", "cat", "kitten").returncode == 0
        wait(driver, lambda d: d.current_url.endswith("#/creation/kitten"), what="the page following the rename")
        assert driver.find_element(By.ID, "creation-title").text == "kitten"
        assert "renamed elsewhere" in driver.find_element(By.ID, "status").text
        caption = driver.find_element(By.ID, "top-caption")
        caption.clear()
        caption.send_keys("FOLLOWED", Keys.ENTER)
        wait(driver, lambda d: "FOLLOWED" in layers_text(server, "kitten"), what="the caption on the renamed creation")
    finally:
        driver.quit()


def test_an_edit_sent_to_the_old_name_goes_to_the_renamed_creation(server):
    # A page that has not heard of the rename yet (its event stream is held back here): its
    # edit is answered 404, and it finds the creation by its id and sends the edit there.
    assert server.memery("new", "dog", "--image", EXAMPLE).returncode == 0
    driver = chromium()
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source":
            "window.EventSource = class { constructor() {} addEventListener() {} close() {} };"})
        driver.get(server.url)
        open_creation(driver, server, "dog")
        assert server.memery("rename", "dog", "puppy").returncode == 0
        caption = driver.find_element(By.ID, "top-caption")
        caption.clear()
        caption.send_keys("NOT LOST", Keys.ENTER)
        wait(driver, lambda d: "NOT LOST" in layers_text(server, "puppy"), what="the edit on the renamed creation")
        assert driver.current_url.endswith("#/creation/puppy"), driver.current_url
        wait(driver, lambda d: d.find_element(By.ID, "status").text == "top caption set", what="the edit said done")
        assert driver.find_element(By.ID, "creation-title").text == "puppy"
        assert driver.find_element(By.ID, "top-caption").get_attribute("value") == "NOT LOST"
    finally:
        driver.quit()


def test_moving_to_the_trash_says_where_it_went(server):
    assert server.memery("new", "bin", "--image", EXAMPLE).returncode == 0
    driver = chromium()
    try:
        driver.get(server.url)
        open_creation(driver, server, "bin")
        reveal(driver, "trash")
        driver.find_element(By.ID, "trash").click()
        wait(driver, lambda d: d.find_element(By.ID, "gallery-view").is_displayed(), what="the gallery")
        status = wait(driver, lambda d: d.find_element(By.ID, "status").text or None, what="what happened")
        assert status == "“bin” moved to the trash: tick Trash above to see it and restore it", status
        assert "bin" in [c["name"] for c in server.json("GET", "/api/creations?trash=true")[1]["creations"]]
        driver.save_screenshot(str(SHOTS / "editor-trashed-desktop.png"))
    finally:
        driver.quit()
