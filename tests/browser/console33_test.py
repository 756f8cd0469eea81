#!/usr/bin/env python3
"""Issue 33's leftovers in a real browser (label: browser), at 1440 and 375 px:

- API keys at 375 px are cards: Revoke is on screen and works, and nothing scrolls sideways;
- every console page at 375 px: no element of the page (header and content) overflows the
  viewport or its container, and nothing scrolls or clips sideways;
- the upload page takes several channels (or all) and, after the job, shows each channel's
  readiness as the job has it; a blocker leads to its affected items;
- the overview's last jobs show their feed, and two jobs of one file can be told apart;
- a wait (429 with Retry-After) is shown as a time, never as seconds;
- axe-core finds no serious violation anywhere.

  console33_test.py --gateway BIN --validator BIN [--notifier BIN] --dqctl BIN --source DIR
                    --artifacts DIR
"""
import os
from urllib.parse import parse_qs, urlparse

import requests
from selenium.webdriver.common.by import By

from harness import Journey, run_journeys
from report_test import channels_csv

PASSWORD = "correct horse battery"
EMAIL = "kirei33@example.com"
# The platform templates in the service's order (common/include/dq/common/vocabulary.h).
ALL_TEMPLATES = ["marketplace1_tw", "marketplace2", "marketplace3", "search_merchant", "social_catalog",
                 "marketplace1_cross", "marketplace4", "marketplace5"]

# Every visible element of the page that overflows: past the viewport, past its parent's box, or
# a box whose content is wider than it (a table that scrolls sideways, a clipped label). As
# report_test.py's check, over the whole body (the header's navigation too), not only <main>;
# text fields may scroll their own value.
OVERFLOW_JS = r"""
const root = document.body;
const vw = document.documentElement.clientWidth;
const out = [];
const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).slice(0, 3).join('.') : '') +
  ' "' + (e.textContent || '').trim().slice(0, 40) + '"';
for (const e of root.querySelectorAll('*')) {
  if (['SCRIPT', 'STYLE', 'LINK', 'META'].includes(e.tagName)) continue;
  const cs = getComputedStyle(e);
  if (cs.display === 'none' || cs.visibility === 'hidden' || e.closest('[hidden]')) continue;
  if (e.closest('.visually-hidden, .visually-hidden-focusable, caption, thead')) continue;
  const r = e.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.left < -1 || r.right > vw + 1) out.push(name(e) + ': outside the viewport (' + Math.round(r.left) + '..' + Math.round(r.right) + ' of ' + vw + ')');
  // A text field scrolls its own value by design (a long key, a URL being typed); a select does
  // not, and is checked.
  if (cs.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1 && !['CANVAS', 'INPUT', 'TEXTAREA'].includes(e.tagName))
    out.push(name(e) + ': content ' + e.scrollWidth + ' px wide in a box of ' + e.clientWidth + ' px (overflow-x ' + cs.overflowX + ')');
  const p = e.parentElement;
  if (p && p !== root && cs.position !== 'absolute' && cs.position !== 'fixed') {
    const pr = p.getBoundingClientRect();
    const ml = Math.max(0, -parseFloat(cs.marginLeft) || 0);
    const mr = Math.max(0, -parseFloat(cs.marginRight) || 0);
    if (r.right > pr.right + mr + 1 || r.left < pr.left - ml - 1) out.push(name(e) + ': wider than its container ' + name(p));
  }
}
return out;
"""

# The console's own wait wording (dates.js), with a fixed "now": 26 Nov 2026 12:00:30 UTC.
WAIT_JS = r"""
const done = arguments[arguments.length - 1];
import('/console/static/_/js/dates.js').then((m) => {
  const now = new Date(Date.UTC(2026, 10, 26, 12, 0, 30));
  done([m.formatWait(1, now), m.formatWait(45, now), m.formatWait(61, now), m.formatWait(180, now),
        m.formatWait(3599, now), m.formatWait(3600, now), m.formatWait(415229, now),
        m.formatWait(40 * 86400, now),
        m.withHumanWait('Rate limit of 10 upload requests per minute reached; retry after 17 s.', 17, now),
        m.withHumanWait('Too many requests without a valid API key from this address; retry after the window resets.', 30, now),
        m.withHumanWait('The service is busy.', 240, now),
        m.withHumanWait('The service is busy.', null, now)]);
}).catch((e) => done(String(e)));
"""


class Console33Test(Journey):
    """One merchant on the pro plan; the steps run in order and share the browser."""
    maxDiff = None
    work_prefix = "dq-console33-test-"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.csv_path = os.path.join(cls.work, "channels.csv")
        with open(cls.csv_path, "w", encoding="utf-8") as f:
            f.write(channels_csv())

    # --- helpers ------------------------------------------------------------------------------
    def console_api(self, path, **params):
        s = requests.Session()
        for c in self.browser.driver.get_cookies():
            s.cookies.set(c["name"], c["value"])
        r = s.get(self.base + "/console/api" + path, params=params, timeout=30)
        self.assertEqual(r.status_code, 200, r.text)
        return r.json()

    def overflow(self, width=375):
        b = self.browser
        b.driver.set_window_size(width, 1000)
        return b.driver.execute_script(OVERFLOW_JS)

    def check(self, name, allowed_api_statuses=()):
        """No console errors; at 1440 and 375 px no serious axe violation and a screenshot; at
        375 px nothing overflows."""
        b = self.browser
        self.assertEqual(b.collect_console_errors(allowed_api_statuses), [], f"browser console errors on {name}")
        for width in (1440, 375):
            b.driver.set_window_size(width, 1000)
            violations = b.axe()
            self.assertEqual([(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in violations], [],
                             f"axe-core serious/critical violations on {name} at {width} px")
            if width == 375:
                self.assertEqual(self.overflow(375), [], f"{name} overflows at 375 px")
            b.screenshot(os.path.join(self.artifacts, f"console33-{name}-{width}.png"), width)
        b.driver.set_window_size(1440, 1000)

    def wait_main(self):
        b = self.browser
        b.wait(lambda: not b.driver.find_element(By.ID, "main").get_attribute("hidden"), what="the page")

    def upload(self, channels, feed="", all_channels=False):
        """Uploads channels.csv from the upload page with these channels ticked; returns the job
        as the console API has it, once done."""
        b = self.browser
        b.open(self.base + "/console/upload")
        b.field("File to check").send_keys(self.csv_path)
        b.wait(lambda: b.driver.find_element(By.ID, "preview-message").text.strip()
               and "Reading" not in b.driver.find_element(By.ID, "preview-message").text, what="the preview")
        if all_channels:
            b.field("All channels").click()
            boxes = b.driver.find_elements(By.CSS_SELECTOR, "#channel-list input[type=checkbox]")
            self.assertTrue(boxes and all(x.is_selected() for x in boxes), "All channels ticks every channel")
        for c in channels:
            b.field(c).click()
        if feed:
            b.fill("Feed name (optional)", feed)
        b.button("Start the check").click()
        b.wait(lambda: "done" in b.driver.find_element(By.ID, "progress-text").text, timeout=120,
               what="the job to finish")
        href = b.link("Open the report").get_attribute("href")
        job_id = parse_qs(urlparse(href).query)["id"][0]
        return self.console_api(f"/jobs/{job_id}", issues="none")

    @staticmethod
    def channel_order(job):
        """The job's channels in the order its platform lists them (all: the service's order);
        the first one's score is the health score."""
        listed = (ALL_TEMPLATES if job["platform"].strip() == "all"
                  else [p.strip() for p in job["platform"].split(",")])
        return [p for p in listed if p in job["channels"]]

    def readiness_matches(self, job):
        """The upload page's readiness cards say what the job's channels say, in the platform's
        order, and name the channel whose score is the health score."""
        b = self.browser
        order = self.channel_order(job)
        self.assertEqual(sorted(order), sorted(job["channels"]))
        self.assertEqual(job["health_score"], job["channels"][order[0]]["score"])
        b.wait(lambda: b.driver.find_element(By.ID, "readiness").is_displayed(), what="the channel readiness")
        cards = b.driver.find_elements(By.CSS_SELECTOR, "#readiness-cards article")
        self.assertEqual([c.get_attribute("data-channel") for c in cards], order)
        if len(order) > 1:
            self.assertIn(f"{order[0]}'s", b.driver.find_element(By.ID, "readiness-note").text)
        for card in cards:
            c = job["channels"][card.get_attribute("data-channel")]
            value = lambda key: card.find_element(By.CSS_SELECTOR, f"[data-key={key}]").text.strip()
            self.assertEqual(value("ready"), f"{c['ready']:,}")
            self.assertEqual(value("blocked"), f"{c['blocked']:,}")
            self.assertEqual(value("score"), str(c["score"]))
            links = card.find_elements(By.CSS_SELECTOR, "[data-key=blockers] a")
            self.assertEqual([a.get_attribute("data-filter-code") for a in links],
                             [t["code"] for t in c["top_blockers"]])
        return cards

    # --- the steps ----------------------------------------------------------------------------
    def test_01_sign_up_as_a_verified_pro_merchant(self):
        b = self.browser
        b.driver.set_window_size(1440, 1000)
        b.open(self.base + "/console/signup")
        self.assertEqual(self.overflow(), [], "the sign-up page overflows at 375 px")
        b.driver.set_window_size(1440, 1000)
        b.fill("Your name or company", "Kirei Goods")
        b.fill("E-mail", EMAIL)
        b.fill("Password", PASSWORD)
        b.button("Sign up").click()
        b.wait(lambda: b.driver.current_url.rstrip("/").endswith("/console"), what="the overview")
        account = b.wait(lambda: b.driver.find_element(By.ID, "account-id").text, what="the account id")
        self.stack.dqctl("account", "set-plan", "--account", account, "--plan", "pro")
        self.stack.dqctl("user", "verify", "--email", EMAIL)
        b.collect_console_errors(allowed_api_statuses=(401,))

    def test_02_keys_at_375_are_cards_with_revoke_on_screen(self):
        b = self.browser
        b.driver.set_window_size(375, 1000)
        b.open(self.base + "/console/integrations")
        self.wait_main()
        for label in ("shop backend", "a rather long label for the nightly catalogue export job"):
            b.fill("Label", label)
            b.button("Create key").click()
            b.wait(lambda: b.driver.find_elements(By.ID, "new-key"), what="the new key")
        b.wait(lambda: len(b.driver.find_elements(By.CSS_SELECTOR, "#keys tr")) == 2, what="two keys")
        self.check("keys")
        b.driver.set_window_size(375, 1000)
        vw = b.driver.execute_script("return document.documentElement.clientWidth")
        revoke = b.driver.find_element(By.CSS_SELECTOR, "#keys button[aria-label^='Revoke key shop backend']")
        b._centred(revoke)
        box = b.driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.right];", revoke)
        self.assertTrue(0 <= box[0] and box[1] <= vw, f"Revoke is off screen at 375 px: {box} of {vw}")
        # Each value stands beside its column's name.
        cell = b.driver.find_element(By.CSS_SELECTOR, "#keys tr td[data-label='Last used']")
        self.assertEqual(b.driver.execute_script(
            "return getComputedStyle(arguments[0], '::before').content", cell), '"Last used"')
        revoke.click()
        b.button("Revoke key").click()
        b.alert_text("key-message", contains="is revoked")
        # Read in the page: the list is redrawn after the revoke (no stale element).
        b.wait(lambda: b.driver.execute_script(
            "return [...document.querySelectorAll('#keys tr')].some((r) => r.textContent.includes('revoked'))"),
            what="the revoked key")
        keys = self.console_api("/keys")
        keys = keys if isinstance(keys, list) else keys["keys"]
        self.assertEqual(sorted(bool(k.get("revoked_at")) for k in keys), [False, True])
        self.check("keys-revoked")

    def test_03_upload_for_two_channels_shows_their_readiness(self):
        b = self.browser
        b.driver.set_window_size(1440, 1000)
        job = self.upload(["search_merchant", "social_catalog"])
        self.assertEqual(list(job["channels"]), ["search_merchant", "social_catalog"])
        self.assertTrue(any(c["top_blockers"] for c in job["channels"].values()), job["channels"])
        self.assertEqual(self.channel_order(job), ["search_merchant", "social_catalog"])
        self.readiness_matches(job)
        self.check("upload-channels")
        self.state["first"] = job
        # A blocker leads to exactly that code's issues in the report.
        link = b.driver.find_element(By.CSS_SELECTOR, "#readiness-cards [data-key=blockers] a")
        code = link.get_attribute("data-filter-code")
        b._centred(link).click()
        b.wait(lambda: parse_qs(urlparse(b.driver.current_url).query).get("code") == [code],
               what="the blocker's code in the address")
        b.wait(lambda: b.driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true",
               timeout=60, what="the report")
        b.wait(lambda: b.driver.find_element(By.ID, "issues").get_attribute("aria-busy") == "false",
               what="the affected items")
        rows = b.driver.find_elements(By.CSS_SELECTOR, "#issues tr")
        self.assertTrue(rows)
        self.assertEqual({r.get_attribute("data-code") for r in rows}, {code})

    def test_04_upload_for_all_channels_at_375(self):
        b = self.browser
        b.driver.set_window_size(375, 1000)
        job = self.upload([], feed="Kirei, every channel", all_channels=True)
        self.assertEqual(job["feed"], "Kirei, every channel")
        self.assertGreater(len(job["channels"]), 2)
        self.readiness_matches(job)
        self.check("upload-all-channels")
        self.state["second"] = job

    def test_05_the_overview_tells_two_jobs_of_one_file_apart(self):
        b = self.browser
        first, second = self.state["first"], self.state["second"]
        self.assertEqual(first["filename"], second["filename"])
        for width in (1440, 375):
            b.driver.set_window_size(width, 1000)
            b.open(self.base + "/console/")
            b.wait(lambda: len(b.driver.find_elements(By.CSS_SELECTOR, "#jobs tr td.feed-cell")) == 2, what="two jobs")
            heads = [h.get_attribute("textContent").strip() for h in b.driver.find_elements(By.CSS_SELECTOR, ".jobs-table thead th")]
            self.assertIn("Feed", heads)
            rows = b.driver.find_elements(By.CSS_SELECTOR, "#jobs tr")
            texts = [r.text for r in rows]
            self.assertEqual(len(set(texts)), 2, texts)
            # Newest first: each row names its file, its feed (a link to the feed's jobs), rows and score.
            for row, job in zip(rows, (second, first)):
                self.assertIn(job["filename"], row.text)
                feed = row.find_element(By.CSS_SELECTOR, "td.feed-cell a")
                self.assertEqual(feed.text, job["feed"])
                self.assertEqual(parse_qs(urlparse(feed.get_attribute("href")).query)["feed"], [job["feed"]])
                self.assertEqual(row.find_element(By.CSS_SELECTOR, "td[data-label=Score]").text.strip(), str(job["health_score"]))
                self.assertEqual(row.find_element(By.CSS_SELECTOR, "td[data-label=Rows]").text.strip(), f"{job['rows_total']:,}")
                self.assertTrue(row.find_element(By.CSS_SELECTOR, "td[data-label=Uploaded] time").get_attribute("datetime"))
        self.check("overview")

    def test_06_every_page_fits_at_375(self):
        b = self.browser
        job_id = self.state["first"]["id"]
        pages = [("jobs", "/console/jobs"), ("report", f"/console/job?id={job_id}"),
                 ("issue-codes", "/console/issue-codes"), ("integrations", "/console/integrations"),
                 ("webhooks", "/console/webhooks")]
        for name, path in pages:
            with self.subTest(page=name):
                b.driver.set_window_size(375, 1000)
                b.open(self.base + path)
                self.wait_main()
                if name == "report":
                    b.wait(lambda: b.driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true",
                           timeout=60, what="the report")
                if name == "webhooks":
                    b.wait(lambda: b.driver.find_element(By.ID, "webhook-url"), what="the webhook form")
                self.check(f"page-{name}")
        # The upload page with a file's mapping shown.
        b.driver.set_window_size(375, 1000)
        b.open(self.base + "/console/upload")
        b.field("File to check").send_keys(self.csv_path)
        b.wait(lambda: not b.driver.find_element(By.ID, "mapping-section").get_attribute("hidden"), what="the mapping")
        self.check("page-upload-mapping")

    def test_07_waits_read_as_times(self):
        b = self.browser
        b.driver.set_window_size(1440, 1000)
        b.open(self.base + "/console/")
        b.driver.set_script_timeout(20)
        got = b.driver.execute_async_script(WAIT_JS)
        self.assertEqual(got, [
            "in 1 second", "in 45 seconds", "in 2 minutes", "in 3 minutes", "in 60 minutes",
            "on 26 Nov at 13:01 UTC", "on 1 Dec at 07:21 UTC", "on 5 Jan 2027 at 12:01 UTC",
            "Rate limit of 10 upload requests per minute reached; try again in 17 seconds.",
            "Too many requests without a valid API key from this address; try again in 30 seconds.",
            "The service is busy. Try again in 4 minutes.",
            "The service is busy.",
        ])

    def test_08_a_throttled_sign_in_says_when_to_try_again(self):
        """The last step: it uses up this address's sign-ins."""
        b = self.browser
        b.button("Log out").click()
        b.wait(lambda: "/console/login" in b.driver.current_url, what="the login page")
        # Ten wrong passwords from elsewhere (the limit per e-mail address), then one in the page.
        for _ in range(10):
            r = requests.post(self.base + "/console/api/login", json={"email": "nobody@example.com", "password": "wrong password!"},
                              timeout=30)
            self.assertEqual(r.status_code, 401, r.text)
        b.driver.set_window_size(375, 1000)
        b.fill("E-mail", "nobody@example.com")
        b.fill("Password", "wrong password!")
        b.button("Log in").click()
        text = b.alert_text("form-error", contains="try again")
        self.assertRegex(text, r"; try again in (1[0-5]|[1-9]) minutes?\.$")
        self.assertNotRegex(text, r"\d+ s\b")
        self.check("login-throttled", allowed_api_statuses=(429,))


def main():
    run_journeys()


if __name__ == "__main__":
    main()
