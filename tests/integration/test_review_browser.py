"""The reviewer view in a real headless Chromium (Debian's, via Selenium + chromium-driver).

Signs in, opens the queue, opens an answer carrying script payloads in its claim, answer text,
quote and document id, checks the quote is highlighted inside its document text, submits a
review with a payload in the note, and sees the answer leave the queue and exactly one
schema-valid event on the reviews topic. No payload may run: `window.__xss` stays undefined, no
dialog opens and the browser logs no blocked inline script. Saves the two screenshots the docs
show: under the test's temporary directory, and into docs/screenshots/ when
`CITEGATE_UPDATE_SCREENSHOTS=1` (so a test run never edits tracked files by accident).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from stream.codec import schema_error
from tests.integration.conftest import StackFactory, service_missing
from tests.integration.review_helpers import (
    HELD,
    XSS_DOC,
    XSS_NOTE,
    XSS_QUOTE,
    ReviewEnv,
    documents,
    wait_queue,
)

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
DOC_SHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("CITEGATE_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CITEGATE_TEST_CHROMEDRIVER", "/usr/bin/chromedriver")


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        service_missing(
            f"headless Chromium needs {CHROMIUM} and {CHROMEDRIVER} "
            "(Debian: apt-get install chromium chromium-driver)"
        )
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        service_missing("selenium is not installed (pip install -e '.[dev]')")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="chromium-", dir=tmp_path)
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        "--lang=en-US",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
async def review_env(make_stack: StackFactory) -> AsyncIterator[ReviewEnv]:
    env = ReviewEnv(await make_stack(documents=documents()))
    try:
        yield env
    finally:
        env.close()


def assert_nothing_ran(driver: Any) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    assert driver.execute_script("return typeof window.__xss") == "undefined"
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert  # noqa: B018 — the property raises when no dialog is open
    logs = driver.get_log("browser")
    assert not [e for e in logs if "Content Security Policy" in e.get("message", "")], logs
    from selenium.webdriver.common.by import By

    # Escaped payloads are text: no element they describe exists in the page.
    assert driver.find_elements(By.CSS_SELECTOR, "main script, main img, main iframe") == []


def screenshot(driver: Any, path: Path) -> None:
    """The whole page: grow the window to the document height first."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1280, min(max(int(height) + 160, 600), 2600))
    path.parent.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(path))
    driver.set_window_size(1280, 900)


def wait_page(driver: Any, path: str, marker: str) -> None:
    """Until the URL contains `path` and the element `marker` (CSS) is present; bounded."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        WebDriverWait(driver, 15).until(
            lambda d: path in d.current_url and d.find_elements(By.CSS_SELECTOR, marker)
        )
    except TimeoutException:
        pytest.fail(
            f"no {marker} at {path}: at {driver.current_url}\n{driver.page_source[:3000]}",
            pytrace=False,
        )


async def in_thread(fn: Any, *args: Any) -> Any:
    return await asyncio.to_thread(fn, *args)


async def test_review_in_a_real_browser(
    review_env: ReviewEnv, browser: Any, tmp_path: Path
) -> None:
    update_docs = os.environ.get("CITEGATE_UPDATE_SCREENSHOTS") == "1"
    shots = DOC_SHOTS if update_docs else tmp_path / "screenshots"
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    env = review_env
    await env.decide()
    server = await env.start_server()
    await wait_queue(server, env.token, HELD)
    driver = browser

    def sign_in_and_open_queue() -> None:
        driver.get(f"{server.base}/queue")
        assert "/login" in driver.current_url
        field = driver.find_element(By.ID, "token")
        assert driver.switch_to.active_element == field  # autofocus: type straight away
        field.send_keys(env.token, Keys.ENTER)
        wait_page(driver, "/queue", "table.queue")
        rows = driver.find_elements(By.CSS_SELECTOR, "table.queue tbody tr")
        links = [r.find_element(By.CSS_SELECTOR, "a.answer-link").text for r in rows]
        assert sorted(links) == sorted(HELD)
        assert driver.find_element(By.ID, "queue-count").text == "3"
        assert "alice" in driver.find_element(By.CSS_SELECTOR, ".who").text
        assert_nothing_ran(driver)

    await in_thread(sign_in_and_open_queue)
    await in_thread(screenshot, driver, shots / "review-queue.png")

    def open_xss_answer_and_review() -> None:
        driver.find_element(By.LINK_TEXT, "rv-xss").click()
        wait_page(driver, "/answers/rv-xss", "#submit-review")
        main = driver.find_element(By.TAG_NAME, "main")
        text = main.text
        # Every payload is shown as text.
        assert "<script>window.__xss='answer';alert(3)</script>" in text
        assert XSS_DOC in text
        mark = driver.find_element(By.CSS_SELECTOR, "p.doc mark.quote")
        assert mark.text == XSS_QUOTE
        doc = mark.find_element(By.XPATH, "..")
        assert doc.text.startswith("Patient leaflet. ")
        assert doc.text.endswith("Do not exceed the stated dose.")
        assert driver.find_element(By.CSS_SELECTOR, "blockquote.claim-text").text == XSS_QUOTE
        assert_nothing_ran(driver)
        # Keyboard: the label radios and the submit button are reachable and operable.
        driver.find_element(By.CSS_SELECTOR, 'input[name="label-0"][value="supported"]').send_keys(
            Keys.SPACE
        )
        driver.find_element(By.CSS_SELECTOR, 'input[name="decision"][value="publish"]').send_keys(
            Keys.SPACE
        )
        driver.find_element(By.ID, "note").send_keys(XSS_NOTE)
        driver.find_element(By.ID, "submit-review").send_keys(Keys.ENTER)
        wait_page(driver, "/queue?reviewed=rv-xss", ".notice")
        rows = driver.find_elements(By.CSS_SELECTOR, "table.queue a.answer-link")
        assert sorted(r.text for r in rows) == sorted(HELD - {"rv-xss"})
        assert "rv-xss" in driver.find_element(By.CSS_SELECTOR, ".notice").text
        assert_nothing_ran(driver)

    await in_thread(open_xss_answer_and_review)

    def open_english_answer() -> None:
        driver.find_element(By.LINK_TEXT, "rv-en").click()
        wait_page(driver, "/answers/rv-en", "#submit-review")
        assert (
            "newer version of this document exists" in driver.find_element(By.TAG_NAME, "main").text
        )
        marks = driver.find_elements(By.CSS_SELECTOR, "p.doc mark.quote")
        assert marks
        spans = driver.find_elements(By.CSS_SELECTOR, "a.claim-span")
        assert len(spans) == 2
        assert driver.find_element(By.CSS_SELECTOR, "p.answer-text").get_attribute("lang") == "en"
        assert_nothing_ran(driver)

    await in_thread(open_english_answer)
    await in_thread(screenshot, driver, shots / "review-answer.png")

    # The submission was acknowledged before the redirect: everything is on the topic now.
    reviews = await env.all_reviews()
    assert len(reviews) == 1
    (event,) = reviews
    assert schema_error("review", event.value) is None
    assert event["answer_id"] == "rv-xss"
    assert event["decision"] == "publish"
    assert event["note"] == XSS_NOTE
    assert event["reviewer"] == {"name": "alice"}
    assert event["claims"] == [
        {"claim_id": "c1", "label": "supported", "note": None, "checker_verdict": "entailed"}
    ]
    await wait_queue(server, env.token, HELD - {"rv-xss"})
