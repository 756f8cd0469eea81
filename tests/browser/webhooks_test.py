#!/usr/bin/env python3
"""Webhooks as dependable as Stripe's, in a real browser (issue 33, point 6; label: browser).

One merchant, in order: creates a webhook in the console (events on by default; a whsec_ secret
shown once), sends a signed test event, rolls the secret (a local receiver verifies the old and
the new secret during the overlap), then a real job's event fails, its retry is pending, and
Redeliver gives the receiver exactly one more delivery: the cancelled retry never arrives, even
after it was due. Screenshots at 1440 and 375 px in --artifacts.
"""
import datetime
import base64
import hashlib
import hmac
import http.server
import json
import os
import threading
import time

import requests
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from harness import Journey, Stack, run_journeys, wait_for

PASSWORD = "correct horse battery"
# The pending retry comes back 10 to 20 s after the failure (equal jitter on 20 s): time enough
# to find it in the console and redeliver first.
RETRY_MS = 20000


class FastRetryStack(Stack):
    """The harness's stack with a short retry schedule, so "the cancelled retry never arrives"
    is checked past its due time within seconds."""

    def common_env(self):
        env = super().common_env()
        env.update({"DQ_WEBHOOK_RETRY_BASE_MS": str(RETRY_MS), "DQ_WEBHOOK_RETRY_MAX_DELAY_MS": str(RETRY_MS)})
        return env


class CountingReceiver:
    """A local endpoint that records every delivery (by delivery id) and answers what the test
    says: a status and a body."""

    def __init__(self):
        self.requests = []
        self.status = 200
        self.body = b'{"received": true}'
        self.lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    receiver.requests.append({"headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
                    status, answer = receiver.status, receiver.body
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/dq"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(self, status, body):
        with self.lock:
            self.status, self.body = status, body

    def for_delivery(self, delivery_id):
        with self.lock:
            return [r for r in self.requests if r["headers"].get("x-service-delivery") == delivery_id]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def spec_signature(secret, body):
    """X-Service-Signature as the specification defines it, for a receiver that knows one secret."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def standard_signature_ok(secret, req):
    """A Standard Webhooks verifier: any of the space-separated v1 signatures matches."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    h = req["headers"]
    signed = f'{h["webhook-id"]}.{h["webhook-timestamp"]}.'.encode() + req["body"]
    expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    return any(hmac.compare_digest(expected, s) for s in h.get("webhook-signature", "").split(" "))


class WebhooksTest(Journey):
    work_prefix = "dq-webhooks-test-"
    stack_class = FastRetryStack

    @classmethod
    def setUpClass(cls):
        if not Journey.args.notifier or not os.path.exists(Journey.args.notifier):
            raise AssertionError("this test needs dq-notifier (--notifier)")
        super().setUpClass()
        cls.receiver = CountingReceiver()
        cls.stop_at_teardown.append(cls.receiver.stop)

    # --- helpers ------------------------------------------------------------------------------
    def check_page(self, name, allowed_api_statuses=()):
        """No console errors, no serious axe violations, nothing wider than the screen at 375 px
        (not the page, and not the deliveries table or any control), screenshots at both widths."""
        b = self.browser
        self.assertEqual(b.collect_console_errors(allowed_api_statuses), [], f"browser console errors on {name}")
        violations = b.axe()
        self.assertEqual([(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in violations], [],
                         f"axe-core serious/critical violations on {name}")
        self.assertTrue(b.no_horizontal_scroll(375), f"{name} scrolls sideways at 375 px")
        b.driver.set_window_size(375, 900)
        wide = b.driver.execute_script(
            "const main = document.querySelector('main').getBoundingClientRect();"
            "return [...document.querySelectorAll('main table, main input, main select, main button, main pre, main details')]"
            ".filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > main.right + 1)"
            ".map((e) => e.tagName + '#' + e.id + '.' + e.className);")
        b.driver.set_window_size(1440, 1000)
        self.assertEqual(wide, [], f"elements wider than the page at 375 px on {name}")
        for width in (375, 1440):
            b.screenshot(os.path.join(self.artifacts, f"{name}-{width}.png"), width)

    def console_session(self):
        """The browser's session, for the one call the page under test does not make (an upload)."""
        s = requests.Session()
        for c in self.browser.driver.get_cookies():
            s.cookies.set(c["name"], c["value"], path=c.get("path", "/"))
        with s.get(self.base + "/console/api/me", timeout=10) as me:
            token = me.json()["csrf_token"]
        s.headers["X-CSRF-Token"] = token
        return s

    def deliveries(self):
        with self.console_session() as s:
            return s.get(self.base + "/console/api/webhook/deliveries?limit=100", timeout=10).json()

    # --- the steps ----------------------------------------------------------------------------
    def test_01_sign_up_as_a_verified_pro_merchant(self):
        b = self.browser
        b.open(self.base + "/console/signup")
        b.fill("Your name or company", "Hooked Goods")
        b.fill("E-mail", "hooks@example.com")
        b.fill("Password", PASSWORD)
        b.button("Sign up").click()
        b.wait(lambda: b.driver.current_url.rstrip("/").endswith("/console"), what="the overview")
        account = b.wait(lambda: b.driver.find_element(By.ID, "account-id").text, what="the account id")
        self.stack.dqctl("account", "set-plan", "--account", account, "--plan", "pro")
        self.stack.dqctl("user", "verify", "--email", "hooks@example.com")
        self.state["account"] = account
        b.collect_console_errors(allowed_api_statuses=(401,))

    def test_02_a_new_webhook_is_on_and_shows_its_secret_once(self):
        b = self.browser
        b.open(self.base + "/console/webhooks")
        enabled = b.field("Send events to this endpoint")
        self.assertTrue(enabled.is_selected(), "the events box starts checked")
        b.fill("Endpoint URL", self.receiver.url)
        b.button("Save endpoint").click()
        b.alert_text("webhook-message", "Events will be sent")
        secret = b.wait(lambda: b.driver.find_element(By.ID, "new-secret").get_attribute("value"), what="the secret")
        self.assertRegex(secret, r"^whsec_[A-Za-z0-9+/]{43}=$")
        self.assertIn("shown only this once", b.visible_text())
        self.check_page("webhooks-created")
        self.state["first"] = secret
        # Shown once: a reload shows its last characters only.
        b.open(self.base + "/console/webhooks")
        b.wait(lambda: "A secret is set" in b.driver.find_element(By.ID, "secret-state").text, what="the secret state")
        self.assertNotIn(secret, b.driver.page_source)
        self.assertIn(secret[-4:], b.driver.find_element(By.ID, "secret-state").text)
        self.assertTrue(b.field("Send events to this endpoint").is_selected())

    def test_03_a_signed_test_event_is_sent_once(self):
        b = self.browser
        b.button("Send test event").click()
        b.alert_text("test-message", "was delivered", timeout=30)
        got = wait_for(lambda: [r for r in self.receiver.requests if json.loads(r["body"]).get("test")], 20,
                       "the test event at the receiver")
        self.assertEqual(len(got), 1)
        req = got[0]
        self.assertEqual(req["headers"]["x-service-signature"], spec_signature(self.state["first"], req["body"]))
        self.assertTrue(standard_signature_ok(self.state["first"], req))
        rows = b.wait(lambda: b.driver.find_elements(By.CSS_SELECTOR, "#deliveries tr.attempt-row"), what="the delivery row")
        self.assertIn("test", rows[0].text)
        self.assertIn("test.csv", rows[0].text)
        self.assertIn("delivered", rows[0].text)

    def test_04_roll_with_overlap_both_secrets_verify(self):
        b = self.browser
        first = self.state["first"]
        b.button("Roll secret").click()
        b.button("Yes, roll the secret").click()
        def rolled():
            try:
                v = b.driver.find_element(By.ID, "new-secret").get_attribute("value")
            except StaleElementReferenceException:  # the message is being replaced
                return None
            return v if v and v != first else None
        new = b.wait(rolled, what="the new secret")
        self.assertTrue(new.startswith("whsec_"))
        self.assertIn("keeps signing beside it until", b.driver.find_element(By.ID, "secret-message").text)
        b.wait(lambda: "also signs until" in b.driver.find_element(By.ID, "secret-state").text, what="the overlap")
        self.state["new"] = new
        # A signed test event during the overlap: the receiver verifies it with either secret.
        before = len(self.receiver.requests)
        b.button("Send test event").click()
        b.alert_text("test-message", "was delivered", timeout=30)
        req = wait_for(lambda: self.receiver.requests[before:], 20, "the second test event")[0]
        self.assertEqual(req["headers"]["x-service-signature"], spec_signature(first, req["body"]),
                         "X-Service-Signature: one sha256= value, keyed with the old secret during the overlap")
        self.assertTrue(standard_signature_ok(first, req), "webhook-signature verifies with the old secret")
        self.assertTrue(standard_signature_ok(new, req), "webhook-signature verifies with the new secret")
        self.assertEqual(len(req["headers"]["webhook-signature"].split(" ")), 2)
        self.check_page("webhooks-rolled")

    def test_05_redeliver_cancels_the_pending_retry(self):
        b = self.browser
        self.receiver.answer(503, b'{"error": "down for maintenance"}')
        s = self.console_session()
        csv = "id,title,price,currency\nsku-1,Blue mug,12.50,USD\nsku-2,Red mug,9.99,US$\n"
        r = s.post(self.base + "/console/api/jobs?filename=mugs.csv", data=csv.encode(),
                   headers={"Content-Type": "text/csv"}, timeout=30)
        self.assertIn(r.status_code, (200, 201, 202), r.text)
        job_id = r.json().get("id") or r.json()["job_id"]

        def failed_attempt():
            for d in self.deliveries():
                if d["job_id"] == job_id and d["outcome"] == "retry":
                    return d
            return None
        failed = wait_for(failed_attempt, 60, "the job's event to fail once")
        delivery_id = failed["delivery_id"]
        self.assertEqual(len(self.receiver.for_delivery(delivery_id)), 1)
        # The failed delivery is signed with both secrets too (a real event, not a test).
        req = self.receiver.for_delivery(delivery_id)[0]
        self.assertTrue(standard_signature_ok(self.state["first"], req) and standard_signature_ok(self.state["new"], req))

        # The console lists it under "Failed, will retry", with the job, the request and the answer.
        Select(b.field("Show")).select_by_visible_text("Failed, will retry")
        row = b.wait(lambda: b.driver.find_element(By.CSS_SELECTOR, f'#deliveries tr.attempt-row[data-delivery="{delivery_id}"]'),
                     what="the failed attempt in the filtered log")
        self.assertIn("mugs.csv", row.text)
        self.assertIn("503", row.text)
        self.assertIn("failed, will retry", row.text)
        self.assertEqual({r.get_attribute("data-outcome") for r in b.driver.find_elements(By.CSS_SELECTOR, "#deliveries tr.attempt-row")},
                         {"retry"})
        b._centred(b.driver.find_element(By.CSS_SELECTOR, f'#deliveries tr[data-detail="{delivery_id}"] summary')).click()
        bodies = b.driver.find_element(By.CSS_SELECTOR, f'#deliveries tr[data-detail="{delivery_id}"]').text
        self.assertIn("down for maintenance", bodies)
        self.assertIn(job_id, bodies)
        for width in (1440, 375):  # the open attempt: request and answer
            b.screenshot(os.path.join(self.artifacts, f"webhooks-attempt-details-{width}.png"), width)

        # Redeliver before the retry is due: exactly one more delivery.
        self.receiver.answer(200, b'{"received": true}')
        due = datetime.datetime.fromisoformat(failed["next_retry_at"].replace("Z", "+00:00")).timestamp() * 1000
        self.assertLess(time.time() * 1000, due - 1000, "the test reached Redeliver too late to see the retry cancelled")
        b._centred(b.driver.find_element(By.CSS_SELECTOR, f'#deliveries tr.attempt-row[data-delivery="{delivery_id}"] button')).click()
        b.alert_text("test-message", "queued again")
        wait_for(lambda: len(self.receiver.for_delivery(delivery_id)) >= 2, 20, "the redelivery")
        # Past the cancelled retry's latest due time, and a few polls more: nothing else came.
        wait_for(lambda: time.time() * 1000 > due + 1500, RETRY_MS / 1000 + 5, "the retry's due time to pass")
        self.assertEqual(len(self.receiver.for_delivery(delivery_id)), 2, "exactly one more delivery after redeliver")
        self.assertEqual(len(self.receiver.for_delivery(delivery_id)), 2, "exactly one more delivery after redeliver")
        attempts = [d for d in self.deliveries() if d["delivery_id"] == delivery_id]
        self.assertEqual([d["outcome"] for d in attempts], ["delivered", "retry"])
        # Nothing is to come: the console shows no next retry for either attempt.
        self.assertEqual([d["next_retry_at"] for d in attempts], [None, None])
        Select(b.field("Show")).select_by_visible_text("Failed, will retry")
        b.wait(lambda: b.driver.find_elements(By.CSS_SELECTOR, f'#deliveries tr.attempt-row[data-delivery="{delivery_id}"]'),
               what="the failed attempt")
        self.check_page("webhooks-failed")
        Select(b.field("Show")).select_by_visible_text("Delivered")
        b.wait(lambda: b.driver.find_elements(By.CSS_SELECTOR, f'#deliveries tr.attempt-row[data-delivery="{delivery_id}"]'),
               what="the redelivered attempt under Delivered")
        self.check_page("webhooks-redelivered")


def main():
    run_journeys()


if __name__ == "__main__":
    main()
