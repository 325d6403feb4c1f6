"""A W3C WebDriver client in the standard library, enough to drive a real headless Chromium
through ``chromedriver`` for the playground's test: start a session, open a page, find
elements, click, type, read text (each finding its element and acting in one step, found
again if the page replaced it meanwhile), run a script. (A browser-automation package would bring
its own dependencies; the protocol is a few JSON calls over HTTP.)"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C key of an element reference
CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome")
# Flags for a closed network: without the background-networking ones Chromium keeps trying
# (and failing) to reach its update and sync services.
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                  "--no-first-run", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--window-size=1200,1000"]


STALE = "stale element reference"  # the W3C error code when the element found was replaced since
STALE_RETRIES = 5  # finds again at once, with no wait: a page that keeps replacing an element is a bug


class WebDriverError(RuntimeError):
    """A WebDriver command that failed, with its W3C error code (``error``, None if unknown)."""

    def __init__(self, error: str | None, message: str) -> None:
        super().__init__(message)
        self.error = error


def browser_missing() -> str | None:
    """Why the browser test cannot run here (None when it can)."""
    if not any(shutil.which(c) for c in CHROMIUM_CANDIDATES):
        return "no Chromium on this machine (Debian: apt-get install chromium chromium-driver)"
    if shutil.which("chromedriver") is None:
        return "no chromedriver on this machine (Debian: apt-get install chromium-driver)"
    return None


class Browser:
    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.profile = tempfile.TemporaryDirectory()
        self.driver = subprocess.Popen(["chromedriver", f"--port={self.port}"], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
        self.wait_for(lambda: self._call("GET", "/status")["ready"], "chromedriver to start", 30)
        binary = next(shutil.which(c) for c in CHROMIUM_CANDIDATES if shutil.which(c))
        options = {"binary": binary, "args": [*CHROMIUM_FLAGS, f"--user-data-dir={self.profile.name}"]}
        session = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options}}})
        self.session = f"/session/{session['sessionId']}"

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            try:
                error = json.loads(raw)["value"]["error"]
            except (ValueError, KeyError, TypeError):
                error = None
            raise WebDriverError(error, f"webdriver {method} {path}: {raw[:500]!r}") from None

    def call(self, method: str, path: str, body: Any = None) -> Any:
        return self._call(method, self.session + path, body)

    def open(self, url: str) -> None:
        self.call("POST", "/url", {"url": url})

    def refresh(self) -> None:
        """Reload the page (its URL, fragment and all), returning once the new page has loaded."""
        self.call("POST", "/refresh", {})

    def find(self, css: str) -> str:
        return self.call("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def on(self, css: str, method: str, action: str, body: Any = None) -> Any:
        """Find the element ``css`` selects and act on it, as one step: if the page replaced
        the element between the two calls (the W3C error "stale element reference"), find
        it again and act on the element that is there now."""
        stale = 0
        while True:
            try:
                return self.call(method, f"/element/{self.find(css)}/{action}", body)
            except WebDriverError as exc:
                stale += 1
                if exc.error != STALE or stale > STALE_RETRIES:
                    raise

    def click(self, css: str) -> None:
        self.on(css, "POST", "click", {})

    def type(self, css: str, text: str) -> None:
        self.on(css, "POST", "value", {"text": text})

    def clear(self, css: str) -> None:
        self.on(css, "POST", "clear", {})

    def text(self, css: str) -> str:
        return self.on(css, "GET", "text")

    def script(self, source: str, *args: Any) -> Any:
        return self.call("POST", "/execute/sync", {"script": source, "args": list(args)})

    def script_async(self, source: str, *args: Any) -> Any:
        """Run ``source``, whose last argument is the callback that gives its answer."""
        return self.call("POST", "/execute/async", {"script": source, "args": list(args)})

    def allow(self, permission: str) -> None:
        """Grant the page a permission (``clipboard-read``), as a user answering its prompt.
        A permission is granted to the page's origin: first wait until the page has one
        (Chrome refuses a grant to an opaque origin, about:blank or a data: page, which a page
        still being left can have: "Permission can't be granted to opaque origins")."""
        self.wait_for(lambda: self.script("return document.readyState === 'complete' && location.origin !== 'null'"),
                      "a loaded page with an origin to grant a permission to")
        self.call("POST", "/permissions", {"descriptor": {"name": permission}, "state": "granted"})

    def keys(self, *keys: str) -> None:
        """Press and release each key in turn, as a user at the keyboard would, wherever the
        focus is (W3C actions: ``"\ue004"`` is Tab, ``"\ue007"`` Enter, ``" "`` the space bar)."""
        actions = []
        for key in keys:
            actions += [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]
        self.call("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})

    def resize(self, width: int, height: int) -> None:
        self.call("POST", "/window/rect", {"width": width, "height": height})

    def screenshot(self, path: str) -> None:
        """A PNG of the viewport, written to ``path``."""
        import base64

        with open(path, "wb") as out:
            out.write(base64.b64decode(self.call("GET", "/screenshot")))

    def wait_for(self, condition, what: str, seconds: float = 30) -> Any:
        """Poll ``condition`` until it is truthy (a hang guard, not a speed assertion)."""
        deadline = time.monotonic() + seconds
        last: Exception | None = None
        while time.monotonic() < deadline:
            try:
                value = condition()
                if value:
                    return value
            except (OSError, RuntimeError, KeyError) as exc:
                last = exc
            time.sleep(0.1)
        raise AssertionError(f"waited {seconds} s for {what}" + (f" (last error: {last})" if last else ""))

    def close(self) -> None:
        try:
            self.call("DELETE", "")
        except (OSError, RuntimeError):
            pass
        self.driver.terminate()
        try:
            self.driver.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.driver.kill()
        self.profile.cleanup()
