"""The real dq stack for the console's browser tests, and a Chromium driven by Selenium.

Stack: redis-server, dq-validator, dq-notifier (when built) and dq-gateway, each on a free
loopback port, with the console served from the repository. Browser: Debian's chromium and
chromedriver, headless, with a fresh profile. Nothing here reaches beyond 127.0.0.1.
"""
import argparse
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import requests
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from free_port import free_port  # noqa: E402  (scripts/lib/free_port.py: the one port picker)


def wait_for(predicate, timeout, what):
    """Polls predicate until it returns something truthy; fails naming what was awaited."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
            if value:
                return value
        except (OSError, requests.RequestException, ValueError, KeyError, IndexError):  # not yet
            value = None
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.05)


def port_open(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


class Stack:
    def __init__(self, bins, source_dir, workdir):
        self.bins = bins
        self.source_dir = source_dir
        self.workdir = workdir
        self.procs = []
        self.redis_port = free_port()
        self.validator_port = free_port()
        self.validator_ops_port = free_port()
        self.notifier_port = free_port()
        self.notifier_grpc_port = free_port()
        self.gateway_port = free_port()
        self.base_url = f"http://127.0.0.1:{self.gateway_port}"

    def known(self, env):
        """Only the settings this build knows (docs/configuration.md lists every one): a service
        refuses to start on an unknown DQ_ variable, and some of these arrive with later work."""
        with open(os.path.join(self.source_dir, "docs", "configuration.md"), encoding="utf-8") as f:
            doc = f.read()
        return {k: v for k, v in env.items() if f"`{k}`" in doc}

    def _spawn(self, name, argv, env):
        env = self.known(env)
        log = open(os.path.join(self.workdir, f"{name}.log"), "wb")
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("DQ_")}
        full_env.update(env)
        proc = subprocess.Popen(argv, env=full_env, stdout=log, stderr=subprocess.STDOUT)
        self.procs.append((name, proc, log))
        return proc

    def common_env(self):
        return {
            "DQ_REDIS_HOST": "127.0.0.1",
            "DQ_REDIS_PORT": str(self.redis_port),
            "DQ_WEBHOOK_ALLOW_HTTP": "1",
            "DQ_WEBHOOK_ALLOW_PRIVATE": "1",
            "DQ_LOG_LEVEL": "warn",
        }

    def start(self):
        redis_dir = os.path.join(self.workdir, "redis")
        os.makedirs(redis_dir, exist_ok=True)
        self._spawn("redis", ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "no", "--dir", redis_dir], {})
        wait_for(lambda: port_open(self.redis_port), 10, "redis-server")
        self._spawn("validator", [self.bins["validator"]], {
            "DQ_VALIDATOR_BIND": "127.0.0.1", "DQ_VALIDATOR_PORT": str(self.validator_port),
            "DQ_VALIDATOR_OPS_PORT": str(self.validator_ops_port)})
        wait_for(lambda: port_open(self.validator_port), 20, "dq-validator")
        if self.bins.get("notifier") and os.path.exists(self.bins["notifier"]):
            env = self.common_env()
            env.update({"DQ_NOTIFIER_BIND": "127.0.0.1", "DQ_NOTIFIER_PORT": str(self.notifier_port),
                        "DQ_NOTIFIER_GRPC_PORT": str(self.notifier_grpc_port),
                        "DQ_NOTIFIER_POLL_MS": "50"})
            self._spawn("notifier", [self.bins["notifier"]], env)
            wait_for(lambda: port_open(self.notifier_port), 20, "dq-notifier")
        env = self.common_env()
        env.update({
            "DQ_GATEWAY_BIND": "127.0.0.1", "DQ_GATEWAY_PORT": str(self.gateway_port),
            "DQ_GATEWAY_OPS_PORT": str(free_port()),
            "DQ_VALIDATOR_ADDR": f"127.0.0.1:{self.validator_port}",
            "DQ_NOTIFIER_ADDR": f"127.0.0.1:{self.notifier_grpc_port}",
            "DQ_CONSOLE_DIR": os.path.join(self.source_dir, "console"),
            "DQ_CONSOLE_ALLOW_HTTP": "1",
            "DQ_SHUTDOWN_GRACE_MS": "0",
            # The journey runs at machine speed, far above a person's 60 requests a minute; the
            # limits themselves are tested elsewhere.
            "DQ_RATE_LIMIT_GENERAL": "1000",
            # Cheap password hashing: the tests sign in often on a shared machine.
            "DQ_ARGON2_MEMORY_KIB": "1024", "DQ_ARGON2_TIME_COST": "1",
        })
        self._spawn("gateway", [self.bins["gateway"]], env)
        gateway = self.procs[-1][1]

        def ready():
            if gateway.poll() is not None:
                raise SystemExit("dq-gateway exited during start-up:\n" + self.logs())
            return requests.get(self.base_url + "/readyz", timeout=1).status_code == 200
        wait_for(ready, 60, "dq-gateway /readyz")

    def dqctl(self, *args):
        env = {k: v for k, v in os.environ.items() if not k.startswith("DQ_")}
        env.update(self.common_env())
        out = subprocess.run([self.bins["dqctl"], *args], env=env, capture_output=True, text=True,
                             timeout=30)
        if out.returncode != 0:
            raise AssertionError(f"dqctl {' '.join(args)} failed: {out.stderr or out.stdout}")
        return out.stdout

    def stop(self):
        for name, proc, log in reversed(self.procs):
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()
        self.procs = []

    def logs(self):
        out = []
        for name in ("gateway", "notifier", "validator"):
            path = os.path.join(self.workdir, f"{name}.log")
            if os.path.exists(path):
                with open(path, "rb") as f:
                    out.append(f"--- {name} (last lines)\n" + b"".join(f.readlines()[-30:]).decode(errors="replace"))
        return "\n".join(out)


class WebhookReceiver:
    """A local endpoint that records every delivery and answers 200."""

    def __init__(self):
        self.requests = []
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/dq"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]


class Browser:
    """Chromium through Selenium, driven by labels and visible text."""

    def __init__(self, workdir, axe_path):
        self.profile = tempfile.mkdtemp(prefix="profile-", dir=workdir)
        self.downloads = os.path.join(workdir, "downloads")
        os.makedirs(self.downloads, exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument("--window-size=1440,1000")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        options.add_experimental_option("prefs", {
            "download.default_directory": self.downloads, "download.prompt_for_download": False})
        service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.execute_cdp_cmd("Page.setDownloadBehavior",
                                    {"behavior": "allow", "downloadPath": self.downloads})
        self.driver.set_script_timeout(30)
        with open(axe_path, encoding="utf-8") as f:
            self.axe_source = f.read()
        self.console_errors = []

    def quit(self):
        self.driver.quit()

    # --- finding things as a person would ------------------------------------------------------
    def wait(self, predicate, timeout=20, what="the page"):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda d: predicate())
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {what} on {self.driver.current_url}")

    def _centred(self, element):
        # As a person scrolls to a control before using it (and nothing sticky covers it).
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", element)
        return element

    def field(self, label):
        """The control whose <label> reads `label`."""
        def find():
            # textContent, not .text: a visually hidden label still names its control.
            for lab in self.driver.find_elements(By.TAG_NAME, "label"):
                if (lab.get_attribute("textContent") or "").strip() == label:
                    control = self.driver.find_element(By.ID, lab.get_attribute("for"))
                    if control.is_displayed():
                        return self._centred(control)
            return None
        return self.wait(find, what=f"a field labelled {label!r}")

    def button(self, text):
        def find():
            for b in self.driver.find_elements(By.XPATH, f"//button[normalize-space()={json.dumps(text)}]"):
                if b.is_displayed() and b.is_enabled():
                    return self._centred(b)
            return None
        return self.wait(find, what=f"a button {text!r}")

    def link(self, text):
        def find():
            for a in self.driver.find_elements(By.XPATH, f"//a[normalize-space()={json.dumps(text)}]"):
                if a.is_displayed():
                    return self._centred(a)
            return None
        return self.wait(find, what=f"a link {text!r}")

    def alert_text(self, region_id, contains=None, timeout=20):
        def find():
            el = self.driver.find_element(By.ID, region_id)
            text = el.text.strip()
            if text and (contains is None or contains.lower() in text.lower()):
                return text
            return None
        return self.wait(find, timeout, what=f"a message in #{region_id}" + (f" containing {contains!r}" if contains else ""))

    def visible_text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text

    def open(self, url):
        self.driver.get(url)
        self.wait(lambda: self.driver.execute_script("return document.readyState") == "complete")

    def fill(self, label, value):
        f = self.field(label)
        f.clear()
        f.send_keys(value)
        return f

    # --- checks ---------------------------------------------------------------------------------
    def collect_console_errors(self, allowed_api_statuses=()):
        """Browser console errors since the last call, except the network lines the browser
        itself writes for API answers the page expects (a 401 after logging out, a 409 for a taken
        e-mail): those are the API working, and the page shows them in words."""
        errors = []
        for entry in self.driver.get_log("browser"):
            if entry["level"] != "SEVERE":
                continue
            msg = entry["message"]
            if entry.get("source") == "network" and "/console/api/" in msg and any(
                    f"status of {s}" in msg for s in allowed_api_statuses):
                continue
            errors.append(msg)
        self.console_errors.extend(errors)
        return errors

    def axe(self):
        """Runs axe-core on the current page at rest; returns its serious and critical violations.

        At rest: the pointer off every control and no CSS transition running. A button the test
        has just clicked fades between its hover, focus and disabled colours, and axe measuring
        it half-way reported a contrast the page never shows once settled (a flaky failure on
        the webhooks page's "Send test event")."""
        d = self.driver
        actions = ActionBuilder(d)
        actions.pointer_action.move_to_location(0, 0)
        actions.perform()
        d.execute_script("if (document.activeElement) document.activeElement.blur();")
        # Endless animations (a spinner) never end and are not what is measured: only the others.
        self.wait(lambda: d.execute_script(
            "return document.getAnimations().filter((a) => a.playState === 'running' &&"
            " a.effect && a.effect.getComputedTiming().iterations !== Infinity).length === 0"),
            timeout=5, what="the page's transitions to end")
        self.driver.execute_script(self.axe_source)
        violations = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations),"
            " (e) => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));")
        return [v for v in violations if v.get("impact") in ("serious", "critical")]

    def screenshot(self, path, width, height=None):
        """A screenshot from the top of the page at the given viewport width: the whole page, or
        the first `height` pixels."""
        d = self.driver
        d.set_window_size(width, 900)
        if height is None:
            height = d.execute_script("return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)")
        d.set_window_size(width, min(max(int(height), 600), 6000))
        d.execute_script("window.scrollTo({top: 0, behavior: 'instant'})")
        d.save_screenshot(path)
        d.set_window_size(1440, 1000)

    def no_horizontal_scroll(self, width):
        d = self.driver
        d.set_window_size(width, 900)
        overflow = d.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        d.set_window_size(1440, 1000)
        return overflow <= 1


class Journey(unittest.TestCase):
    """A merchant's journey in the real browser against a real stack: the steps run in order,
    share the browser, and stop at the first failure (the later ones are skipped, since they
    build on it); a failed step leaves a screenshot, the page's text and the stack's logs.

    A test module sets `args` (its parsed command line: gateway, validator, notifier, dqctl,
    source, artifacts) before unittest runs, and may set `work_prefix` and `stack_class`. Its
    setUpClass calls this one first, then adds its own fixtures; what must stop before the
    stack goes to `stop_at_teardown`."""

    args = None
    work_prefix = "dq-browser-test-"
    stack_class = Stack

    @classmethod
    def setUpClass(cls):
        a = cls.args
        cls.work = tempfile.mkdtemp(prefix=cls.work_prefix)
        cls.artifacts = a.artifacts
        os.makedirs(cls.artifacts, exist_ok=True)
        cls.stack = cls.stack_class({"gateway": a.gateway, "validator": a.validator,
                                     "notifier": a.notifier, "dqctl": a.dqctl}, a.source, cls.work)
        try:
            cls.stack.start()
        except BaseException:
            print(cls.stack.logs(), file=sys.stderr)
            cls.stack.stop()
            raise
        cls.base = cls.stack.base_url
        cls.stop_at_teardown = []
        axe = os.path.join(a.source, "scripts", "node_modules", "axe-core", "axe.min.js")
        if not os.path.exists(axe):
            cls.stack.stop()
            raise AssertionError(f"{axe} is missing: run scripts/install-deps.sh --node")
        cls.browser = Browser(cls.work, axe)
        cls.state = {}

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        for stop in reversed(cls.stop_at_teardown):
            stop()
        cls.stack.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def run(self, result=None):
        # Later steps need the earlier ones: stop at the first failure.
        if result is not None and (result.failures or result.errors):
            result.startTest(self)
            result.addSkip(self, "an earlier step failed")
            result.stopTest(self)
            return result
        return super().run(result)

    def tearDown(self):
        outcome = self._outcome
        failed = any(err for _, err in getattr(outcome, "errors", []) if err) or (
            hasattr(outcome, "result") and (outcome.result.failures or outcome.result.errors))
        if failed:
            b = self.browser
            b.driver.save_screenshot(os.path.join(self.artifacts, f"failure-{self._testMethodName}.png"))
            print(f"\nat {b.driver.current_url}\n{b.visible_text()[:2000]}\n{self.stack.logs()}", file=sys.stderr)


def run_journeys(*extra_options):
    """A browser test's main: parses the command line every journey takes (--gateway,
    --validator, --notifier (optional), --dqctl, --source, --artifacts, plus extra_options),
    gives it to Journey, and runs the module's tests with the rest. Returns nothing; the module
    reads its options as Journey.args."""
    p = argparse.ArgumentParser()
    for name in ("gateway", "validator", "notifier", "dqctl", "source", "artifacts"):
        p.add_argument("--" + name, required=name != "notifier")
    for option in extra_options:
        p.add_argument(option)
    Journey.args, rest = p.parse_known_args()
    unittest.main(module="__main__", argv=[sys.argv[0], "-v", *rest])
