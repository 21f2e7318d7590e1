"""Headless Chromium for the tests of alea's HTML report: render a page at a
laptop's or a phone's width, and get back the screenshot, the DOM after load
and layout, the page's layout size, and every URL the page requested. Not a
test itself; the *_test.py scripts import it.

    r = chromium.render("report.html", out_dir)          # 1280 x 2000
    r = chromium.render_phone("report.html", out_dir)    # 390 x 844, mobile
    r.png, r.dom, r.urls, r.external, r.layout
    r = chromium.render("report.html", out_dir, evaluate={"n": "document.links.length"})
    r.values["n"]                                        # a script's value after layout
    chromium.is_blank(r.png)

How. `chromium --headless=new` cannot make its window narrower than 500 px,
so --window-size cannot give a phone's width, and --screenshot only shows the
window. The page is therefore driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: NUL-separated JSON on file descriptors 3 and 4, no
port, no extra package): Emulation.setDeviceMetricsOverride sets the
viewport, Page.captureScreenshot takes the whole page, Runtime.evaluate
reads the DOM (what --dump-dom prints) and the layout size. Requests are
recorded twice: the page's own from Network.requestWillBeSent, and every
request of the browser in --log-net-log's JSON (URL_REQUEST_START_JOB), where
the browser's own background requests (update checks, the network time) are
told apart by their initiator "not an origin". --host-resolver-rules makes
every host name fail to resolve, so a request is recorded but nothing leaves
the machine. The tests run as root, hence --no-sandbox.

A URL is local if its scheme is file, data, about or blob; any other URL the
page requested is in `external`, which a self-contained report must leave
empty. DNS prefetch hints (<link rel=dns-prefetch>) make no request and are
not seen: check the HTML text for them."""
import base64
import fcntl
import json
import os
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import zlib
from dataclasses import dataclass, field

LAPTOP = (1280, 2000)
PHONE = (390, 844)
HANG_GUARD = 120  # seconds for one render: a guard against a hang, never a measurement
LOCAL_SCHEMES = ("file:", "data:", "about:", "blob:")


def executable():
    """The Chromium on PATH (Debian's package installs `chromium`), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass
class Render:
    png: str  # the screenshot of the whole page
    dom: str  # the document after load, as --dump-dom prints it
    urls: list  # every URL the page requested, in order, without repeats
    external: list  # those that are not local: a failure for a self-contained page
    layout: dict  # viewport_width/height, scroll_width/height (CSS px)
    background: list = field(default_factory=list)  # the browser's own requests
    values: dict = field(default_factory=dict)  # render(evaluate=...)'s results, by name


class ChromiumError(RuntimeError):
    pass


def render(html_path, out_dir, width=LAPTOP[0], height=LAPTOP[1], mobile=False, name="page",
           evaluate=None, clip=None):
    """Renders the local file `html_path` in a viewport of width x height CSS
    px (as a phone if `mobile`: the viewport meta tag applies, scrollbars
    overlay). Writes <name>.png, <name>.netlog.json and <name>.log (the
    browser's stderr) into `out_dir`. `evaluate` maps names to JavaScript
    expressions evaluated in the page after layout; their JSON values are in
    the result's `values`. `clip`: a JavaScript expression giving the
    {x, y, width, height} of the page (CSS px) the screenshot keeps; default:
    the whole page."""
    html_path = os.path.abspath(html_path)
    if not os.path.isfile(html_path):
        raise FileNotFoundError(html_path)
    chromium = executable()
    if chromium is None:
        raise ChromiumError("chromium is not installed (scripts/setup.sh installs it)")
    os.makedirs(out_dir, exist_ok=True)
    png = os.path.join(out_dir, name + ".png")
    netlog = os.path.join(out_dir, name + ".netlog.json")
    with tempfile.TemporaryDirectory(prefix="alea-chromium-") as profile, \
            open(os.path.join(out_dir, name + ".log"), "w") as log:
        args = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
                f"--user-data-dir={profile}", f"--window-size={max(width, 500)},{height}",
                "--hide-scrollbars", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-sync", "--disable-background-networking",
                "--disable-component-update", "--host-resolver-rules=MAP * ~NOTFOUND",
                f"--log-net-log={netlog}", "--remote-debugging-pipe", "about:blank"]
        with _Browser(args, log) as browser:
            page = _open_page(browser, width, height, mobile)
            browser.events.clear()  # no load event of about:blank can be taken for ours
            browser.call("Page.navigate", {"url": "file://" + html_path}, page)
            browser.wait_event("Page.loadEventFired", page)
            # Web fonts (none expected) and one frame: what is drawn is laid out.
            browser.evaluate("document.fonts.ready.then(() => new Promise("
                             "r => requestAnimationFrame(() => r(1))))", page)
            dom = browser.evaluate(
                "(document.doctype ? '<!DOCTYPE ' + document.doctype.name + '>\\n' : '')"
                " + document.documentElement.outerHTML", page)
            layout = browser.evaluate(
                "({viewport_width: window.innerWidth, viewport_height: window.innerHeight,"
                " scroll_width: document.documentElement.scrollWidth,"
                " scroll_height: document.documentElement.scrollHeight})", page)
            values = {k: browser.evaluate(v, page) for k, v in (evaluate or {}).items()}
            size = browser.call("Page.getLayoutMetrics", {}, page)["cssContentSize"]
            area = {"x": 0, "y": 0, "width": size["width"], "height": size["height"]}
            if clip:
                area = browser.evaluate(clip, page)
            shot = browser.call("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": area["x"], "y": area["y"], "width": max(area["width"], 1),
                         "height": max(area["height"], 1), "scale": 1}}, page)
            with open(png, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            page_urls = [e["params"]["request"]["url"] for e in browser.events
                         if e.get("method") == "Network.requestWillBeSent"
                         and e.get("sessionId") == page]
    logged, background = _netlog_urls(netlog)
    urls = []
    for url in page_urls + logged:
        if url not in urls:
            urls.append(url)
    external = [u for u in urls if not u.startswith(LOCAL_SCHEMES)]
    return Render(png, dom, urls, external, layout, background, values)


def render_phone(html_path, out_dir, name="phone"):
    """render() at a phone's width (390 x 844 CSS px), as a mobile device."""
    return render(html_path, out_dir, PHONE[0], PHONE[1], mobile=True, name=name)


# ------------------------------------------------------------ the protocol


class _Browser:
    """One Chromium process driven over --remote-debugging-pipe. Every wait
    shares one deadline (HANG_GUARD); past it the process group is killed."""

    def __init__(self, args, log):
        # The browser reads commands on fd 3 and writes replies on fd 4. The
        # pipes are moved to fds >= 10 first so that the child's dup2 onto 3
        # and 4 cannot overwrite one of them.
        def high(fd):
            moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
            os.close(fd)
            return moved
        to_browser_r, self._to_browser = map(high, os.pipe())
        self._from_browser, from_browser_w = map(high, os.pipe())

        def child_fds():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)
        self._proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                      preexec_fn=child_fds, close_fds=False,
                                      start_new_session=True)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._deadline = time.monotonic() + HANG_GUARD
        self._buffer = b""
        self._next_id = 0
        self.events = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        try:
            if self._proc.poll() is None:
                self._send("Browser.close", {}, None)
                self._proc.wait(timeout=max(1, self._deadline - time.monotonic()))
        except (OSError, subprocess.TimeoutExpired):
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)  # our own child's group
            except ProcessLookupError:
                pass
            self._proc.wait()
        finally:
            os.close(self._to_browser)
            os.close(self._from_browser)
        return False

    def _send(self, method, params, session):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        return self._next_id

    def _read(self, wanted):
        """The first message that satisfies `wanted`; the others are kept in
        self.events."""
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                message = json.loads(raw)
                if wanted(message):
                    return message
                self.events.append(message)
            left = self._deadline - time.monotonic()
            ready, _, _ = select.select([self._from_browser], [], [], max(0, left))
            if not ready:
                raise ChromiumError(f"no answer from chromium within {HANG_GUARD} s")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise ChromiumError("chromium closed the pipe (see its .log)")
            self._buffer += chunk

    def call(self, method, params, session):
        sent = self._send(method, params, session)
        reply = self._read(lambda m: m.get("id") == sent)
        if "error" in reply:
            raise ChromiumError(f"{method}: {reply['error']}")
        return reply["result"]

    def wait_event(self, method, session):
        for i, e in enumerate(self.events):
            if e.get("method") == method and e.get("sessionId") == session:
                return self.events.pop(i)
        return self._read(lambda m: m.get("method") == method and m.get("sessionId") == session)

    def evaluate(self, expression, session):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, session)
        if "exceptionDetails" in result:
            raise ChromiumError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")


def _open_page(browser, width, height, mobile):
    """Attaches to the browser's first tab and sets its viewport."""
    targets = browser.call("Target.getTargets", {}, None)["targetInfos"]
    tab = next(t for t in targets if t["type"] == "page")
    page = browser.call("Target.attachToTarget", {"targetId": tab["targetId"], "flatten": True},
                        None)["sessionId"]
    for method in ("Page.enable", "Network.enable", "Runtime.enable"):
        browser.call(method, {}, page)
    browser.call("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, page)
    return page


def _netlog_urls(path):
    """(URLs the page or its content requested, URLs the browser requested
    for itself) from a --log-net-log file."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return [], []
    try:
        log = json.loads(text)
    except json.JSONDecodeError:
        # A browser that was killed leaves the events array unterminated.
        log = json.loads(text.rstrip().rstrip(",") + "]}")
    start_job = log["constants"]["logEventTypes"].get("URL_REQUEST_START_JOB")
    page, browser = [], []
    for event in log.get("events", []):
        params = event.get("params") or {}
        if event.get("type") != start_job or "url" not in params:
            continue
        (browser if params.get("initiator") == "not an origin" else page).append(params["url"])
    return page, browser


# -------------------------------------------------------------------- PNG


def _png_chunks(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    at = 8
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        yield kind, data[at + 8:at + 8 + length]
        at += 12 + length


def png_size(path):
    """(width, height) of a PNG file."""
    with open(path, "rb") as f:
        for kind, body in _png_chunks(f.read(33)):
            if kind == b"IHDR":
                return struct.unpack(">II", body[:8])
    raise ValueError(f"{path}: no IHDR chunk")


def is_blank(path):
    """True if every pixel of the PNG file has the same colour.

    Decoded with zlib alone. Rather than undoing the five PNG row filters
    byte by byte (slow in Python for a 1280 x 2000 screenshot), each filtered
    row is compared with what that filter makes of a row of the first pixel's
    colour under a row of that colour: equal for every row exactly when the
    image is one colour. 8- and 16-bit images of every colour type, not
    interlaced (what Chromium writes); a palette image compares indices."""
    with open(path, "rb") as f:
        data = f.read()
    header, idat = None, []
    for kind, body in _png_chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    if header is None:
        raise ValueError(f"{path}: no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    if interlace or depth not in (8, 16) or (colour == 3 and depth != 8):
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, interlace {interlace})")
    bpp = channels * depth // 8
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    if len(raw) != height * (stride + 1):
        raise ValueError(f"{path}: image data of {len(raw)} bytes, expected {height * (stride + 1)}")
    first = raw[1:1 + bpp]
    rest = width - 1
    zeros = bytes(stride)
    half = bytes((b - b // 2) & 0xFF for b in first)  # x - floor(x / 2)
    # By filter type: the first row (above it, zeros), then any later row.
    expected_first = {0: first * width, 1: first + bytes(rest * bpp), 2: first * width,
                      3: first + half * rest, 4: first + bytes(rest * bpp)}
    expected_later = {0: first * width, 1: first + bytes(rest * bpp), 2: zeros,
                      3: half + bytes(rest * bpp), 4: zeros}
    for row in range(height):
        at = row * (stride + 1)
        table = expected_first if row == 0 else expected_later
        want = table.get(raw[at])
        if want is None or raw[at + 1:at + 1 + stride] != want:
            return False
    return True
