#!/usr/bin/env python3
"""The job report in a real browser (label: browser; issue 33 points 1-3 and 7, issue 32 point 4): at 1440 and
375 px a merchant uploads a file, opens the report, reads a code's guidance (title, how to fix,
example, docs link) and follows it to the affected items, which the server filters; at 375 px no
table or control of the report overflows its container; a deleted or unknown job shows a page
that says so, without a Delete button; a job for two channels shows their readiness matrix and
its top blockers lead to their issues; axe-core finds no serious violation anywhere.

  report_test.py --gateway BIN --validator BIN [--notifier BIN] --dqctl BIN --source DIR
                 --artifacts DIR
"""
import os
import re
from urllib.parse import parse_qs, urlparse

import requests
from selenium.webdriver.common.by import By

from harness import Journey, run_journeys

PASSWORD = "correct horse battery"
CODE = "INVALID_CURRENCY"

# 24 products. Rows 3, 7, 11, ... write their currency as a merchant might ("US$"): the code the
# merchant follows. Others carry other problems, so the filter has something to leave out.
def catalog_csv():
    lines = ["sku,title,price,currency,image_url"]
    for i in range(24):
        sku = f"MUG-{i:03d}" if i % 9 != 5 else ""
        title = f"Ceramic mug {i}" if i % 6 else f"  Ceramic mug {i}  "
        price = "abc" if i % 8 == 1 else f"{10 + i}.50"
        currency = "US$" if i % 4 == 2 else "EUR"
        image = f"http://shop.example/img/{i}.jpg" if i % 5 == 0 else f"https://shop.example/img/{i}.jpg"
        lines.append(f"{sku},{title},{price},{currency},{image}")
    return "\n".join(lines) + "\n"


# 12 products for two channels at once (issue 32 point 4): Merchant Center and Meta. Some rows are
# complete; others lack a link, carry an HTML description or an ALL-CAPS title, so each channel
# has rows ready and rows blocked, for reasons the two channels do not all share.
PLATFORMS = "search_merchant,social_catalog"


def channels_csv():
    lines = ["sku,title,description,price,currency,link,image_link,availability,condition,brand,mpn"]
    for i in range(12):
        title = "BEST MUG EVER!!! FREE SHIPPING" if i % 4 == 1 else f"Ceramic mug {i}"
        description = "<p>A <b>mug</b></p>" if i % 3 == 2 else f"A ceramic mug numbered {i}"
        link = "" if i % 5 == 3 else f"https://kireimugs.com/p/{i}"
        lines.append(f"CH-{i:03d},{title},{description},{12 + i}.00,USD,{link},"
                     f"https://kireimugs.com/img/{i}.jpg,in stock,new,Kirei,KM-{i}")
    return "\n".join(lines) + "\n"


UPLOAD_JS = r"""
const [csv, platform, done] = arguments;
import('/console/static/_/js/api.js').then(async (m) => {
  try {
    await m.api.me();
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'channels.csv');
    form.append('platform', platform);
    done({ job: await m.api.upload(form) });
  } catch (e) { done({ error: String(e && e.message) }); }
});
"""


# Every visible element of <main> that overflows: past the viewport, past its parent's box, or a
# box whose content is wider than it (a table that scrolls sideways, a clipped label).
OVERFLOW_JS = r"""
const root = document.querySelector('main');
const vw = document.documentElement.clientWidth;
const out = [];
const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).slice(0, 3).join('.') : '') +
  ' "' + (e.textContent || '').trim().slice(0, 40) + '"';
for (const e of [root, ...root.querySelectorAll('*')]) {
  const cs = getComputedStyle(e);
  if (cs.display === 'none' || cs.visibility === 'hidden' || e.closest('[hidden]')) continue;
  if (e.closest('.visually-hidden, .visually-hidden-focusable, caption, thead')) continue;
  const r = e.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.left < -1 || r.right > vw + 1) out.push(name(e) + ': outside the viewport (' + Math.round(r.left) + '..' + Math.round(r.right) + ' of ' + vw + ')');
  // A box that scrolls or clips sideways (a table in .table-responsive, a truncated label).
  if (cs.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1 && e.tagName !== 'CANVAS')
    out.push(name(e) + ': content ' + e.scrollWidth + ' px wide in a box of ' + e.clientWidth + ' px (overflow-x ' + cs.overflowX + ')');
  // A box past its container's edge, beyond what a negative margin asks for (Bootstrap's .row
  // gutters, which its columns' padding gives back).
  const p = e.parentElement;
  if (p && e !== root && cs.position !== 'absolute' && cs.position !== 'fixed') {
    const pr = p.getBoundingClientRect();
    const ml = Math.max(0, -parseFloat(cs.marginLeft) || 0);
    const mr = Math.max(0, -parseFloat(cs.marginRight) || 0);
    if (r.right > pr.right + mr + 1 || r.left < pr.left - ml - 1) out.push(name(e) + ': wider than its container ' + name(p));
  }
}
return out;
"""


class ReportTest(Journey):
    """One merchant; the steps run in order and share the browser."""
    maxDiff = None

    work_prefix = "dq-report-test-"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.csv_path = os.path.join(cls.work, "mugs.csv")
        with open(cls.csv_path, "w", encoding="utf-8") as f:
            f.write(catalog_csv())

    # --- helpers ------------------------------------------------------------------------------
    def session(self):
        """The browser's session, for reading the console API as the page does."""
        s = requests.Session()
        for c in self.browser.driver.get_cookies():
            s.cookies.set(c["name"], c["value"])
        return s

    def console_api(self, path, **params):
        r = self.session().get(self.base + "/console/api" + path, params=params, timeout=30)
        self.assertEqual(r.status_code, 200, r.text)
        return r.json()

    def check(self, name, width, allowed_api_statuses=()):
        """No console errors, no serious axe violations, and a screenshot, at this width."""
        b = self.browser
        b.driver.set_window_size(width, 1000)
        errors = b.collect_console_errors(allowed_api_statuses)
        self.assertEqual(errors, [], f"browser console errors on {name}")
        violations = b.axe()
        self.assertEqual([(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in violations], [],
                         f"axe-core serious/critical violations on {name} at {width} px")
        b.screenshot(os.path.join(self.artifacts, f"{name}-{width}.png"), width)
        b.driver.set_window_size(width, 1000)

    def wait_ready(self):
        b = self.browser
        b.wait(lambda: b.driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true",
               timeout=60, what="the report")

    def wait_issues(self):
        b = self.browser
        b.wait(lambda: b.driver.find_element(By.ID, "issues").get_attribute("aria-busy") == "false",
               what="the affected items")

    def upload_and_open(self, width):
        b = self.browser
        b.driver.set_window_size(width, 1000)
        b.open(self.base + "/console/upload")
        b.field("File to check").send_keys(self.csv_path)
        b.wait(lambda: b.driver.find_element(By.ID, "preview-message").text.strip()
               and "Reading" not in b.driver.find_element(By.ID, "preview-message").text, what="the preview")
        b.button("Start the check").click()
        b.wait(lambda: "done" in b.driver.find_element(By.ID, "progress-text").text, timeout=120,
               what="the job to finish")
        b.link("Open the report").click()
        self.wait_ready()
        return re.search(r"id=([0-9a-f-]+)", b.driver.current_url).group(1)

    def code_card(self, title):
        b = self.browser
        def find():
            for card in b.driver.find_elements(By.CSS_SELECTOR, "#examples article"):
                if card.is_displayed() and title in card.text:
                    return card
            return None
        return b.wait(find, what=f"the card of {title!r}")

    def follow_guidance(self, job_id, width):
        """Reads CODE's guidance on the report and follows it to the affected items."""
        b = self.browser
        catalogue = {c["code"]: c for c in self.console_api("/issue-codes")["issue_codes"]}
        info = catalogue[CODE]
        summary = self.console_api(f"/jobs/{job_id}/summary")
        codes = [c["code"] for c in summary["by_code"]]
        self.assertIn(CODE, codes)
        severities = [c["severity"] for c in summary["by_code"]]
        self.assertEqual(severities, sorted(severities, key=lambda s: s != "error"), "errors come first")
        expected = sum(c["count"] for c in summary["by_code"] if c["code"] == CODE)

        # The cards come in the summary's order: errors first.
        cards = b.driver.find_elements(By.CSS_SELECTOR, "#examples article")
        self.assertEqual([c.get_attribute("data-code") for c in cards], codes)
        card = self.code_card(info["title"])
        text = card.text
        self.assertIn(info["how_to_fix"], text)
        self.assertIn(info["example"]["before"], text)
        self.assertIn(info["example"]["after"], text)
        docs = card.find_element(By.XPATH, f".//a[normalize-space()='About {CODE} in the docs']")
        self.assertTrue(docs.get_attribute("href").endswith(f"/console/issue-codes#{CODE}"))
        self.state[f"docs-{width}"] = docs.get_attribute("href")

        show = card.find_element(By.XPATH, ".//a[starts-with(normalize-space(), 'Show the ')]")
        self.assertEqual(show.text, f"Show the {expected} affected items")
        b._centred(show).click()
        b.wait(lambda: parse_qs(urlparse(b.driver.current_url).query).get("code") == [CODE],
               what="the filter in the address")
        self.wait_issues()
        b.wait(lambda: b.driver.find_element(By.ID, "issues-count").get_attribute("data-count") == str(expected),
               what=f"{expected} matching issues")
        rows = b.driver.find_elements(By.CSS_SELECTOR, "#issues tr")
        api = self.console_api(f"/jobs/{job_id}/issues", code=CODE, limit=50)["issues"]
        self.assertEqual(len(rows), len(api))
        self.assertEqual(len(rows), expected)
        for row, issue in zip(rows, api):
            self.assertEqual(row.get_attribute("data-code"), CODE)
            self.assertIn(issue["sku"] or "no SKU", row.text)  # the item, by SKU
            self.assertIn(issue["title"].strip(), row.text)  # and title
            self.assertIn(issue["original_value"], row.text)  # its value
            self.assertIn(info["how_to_fix"], row.text)       # and what to do
        # The controls say what is shown, and the CSV download takes the same filter.
        self.assertEqual(b.field("Code").get_attribute("value"), CODE)
        csv_href = b.driver.find_element(By.ID, "download-issues").get_attribute("href")
        self.assertIn(f"code={CODE}", csv_href)
        csv_text = self.session().get(csv_href, timeout=30).text
        self.assertEqual(len(csv_text.strip().splitlines()) - 1, expected)

        # One SKU, typed: only its issues.
        sku = api[0]["sku"]
        b.fill("SKU", sku)
        b.button("Filter").click()
        b.wait(lambda: parse_qs(urlparse(b.driver.current_url).query).get("sku") == [sku], what="the SKU filter")
        self.wait_issues()
        rows = b.driver.find_elements(By.CSS_SELECTOR, "#issues tr")
        self.assertEqual(len(rows), 1)
        self.assertIn(sku, rows[0].text)
        b.fill("SKU", "")
        b.button("Filter").click()
        self.wait_issues()

    def assert_labels_fit(self):
        b = self.browser
        for canvas in ("chart-fields", "chart-codes"):
            fits = b.wait(lambda: b.driver.find_element(By.ID, canvas).get_attribute("data-labels-fit"),
                          what=f"{canvas} drawn")
            self.assertEqual(fits, "true", f"{canvas} has labels that do not fit")

    # --- the journey ----------------------------------------------------------------------------
    def test_01_sign_up(self):
        b = self.browser
        b.open(self.base + "/console/signup")
        b.fill("Your name or company", "Kirei Mugs")
        b.fill("E-mail", "mugs@example.com")
        b.fill("Password", PASSWORD)
        b.button("Sign up").click()
        b.wait(lambda: b.driver.current_url.rstrip("/").endswith("/console"), what="the overview")
        b.collect_console_errors(allowed_api_statuses=(401,))

    def test_02_report_at_1440_guides_to_the_affected_items(self):
        job_id = self.upload_and_open(1440)
        self.state["job-1440"] = job_id
        self.assert_labels_fit()
        self.check("report", 1440)
        self.follow_guidance(job_id, 1440)
        self.check("report-filtered", 1440)

    def test_03_the_docs_link_opens_the_codes_section(self):
        b = self.browser
        b.open(self.state["docs-1440"])
        section = b.wait(lambda: (lambda e: e if e.is_displayed() else None)(b.driver.find_element(By.ID, CODE)),
                         what=f"the section {CODE}")
        info = {c["code"]: c for c in self.console_api("/issue-codes")["issue_codes"]}[CODE]
        self.assertIn(info["meaning"][:60], section.text)
        self.assertIn(info["how_to_fix"], section.text)
        self.wait_ready()
        self.check("issue-codes", 1440)

    def test_04_report_at_375_guides_to_the_affected_items(self):
        job_id = self.upload_and_open(375)
        self.state["job-375"] = job_id
        self.assert_labels_fit()
        self.check("report", 375)
        self.follow_guidance(job_id, 375)
        self.check("report-filtered", 375)

    def test_05_nothing_overflows_at_375(self):
        b = self.browser
        for query in ("", f"&code={CODE}"):
            b.driver.set_window_size(375, 1000)
            b.open(f"{self.base}/console/job?id={self.state['job-375']}{query}")
            self.wait_ready()
            self.wait_issues()
            self.assert_labels_fit()
            overflow = b.driver.execute_script(OVERFLOW_JS)
            self.assertEqual(overflow, [], f"elements of the report overflow at 375 px ({query or 'no filter'})")
            # The issues are cards: each row is as wide as the list, not a table row.
            rows = b.driver.find_elements(By.CSS_SELECTOR, "#issues tr")
            self.assertTrue(rows)
            list_width = b.driver.find_element(By.ID, "issues").rect["width"]
            for r in rows[:5]:
                self.assertEqual(b.driver.execute_script("return getComputedStyle(arguments[0]).display", r), "block")
                self.assertGreaterEqual(r.rect["width"], list_width - 1)
            self.assertLessEqual(b.driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth"), 1)
        b.open(f"{self.base}/console/issue-codes#{CODE}")
        self.wait_ready()
        self.assertEqual(b.driver.execute_script(OVERFLOW_JS), [], "the codes page overflows at 375 px")
        self.check("issue-codes", 375)
        b.driver.set_window_size(1440, 1000)

    def test_06_deleted_or_unknown_job_says_so(self):
        b = self.browser
        b.driver.set_window_size(1440, 1000)
        job_id = self.state["job-1440"]
        b.open(f"{self.base}/console/job?id={job_id}")
        self.wait_ready()
        b.button("Delete job").click()
        b.button("Yes, delete the job").click()
        b.wait(lambda: "/console/jobs" in b.driver.current_url, what="the job list")
        for width in (1440, 375):
            for ident in (job_id, "00000000-0000-4000-8000-000000000000", "not-a-job"):
                b.driver.set_window_size(width, 1000)
                b.open(f"{self.base}/console/job?id={ident}")
                self.wait_ready()
                heading = b.driver.find_element(By.TAG_NAME, "h1")
                self.assertEqual(heading.text, "This job does not exist or was deleted")
                self.assertEqual(b.driver.find_elements(By.XPATH, "//button[normalize-space()='Delete job']"), [])
                self.assertEqual(b.driver.find_elements(By.ID, "issues"), [])
                b.link("Go to your jobs")
                self.assertEqual(b.driver.execute_script(OVERFLOW_JS), [])
            self.check("job-missing", width, allowed_api_statuses=(404,))
        b.driver.set_window_size(1440, 1000)

    def test_07_channel_readiness_matrix(self):
        """A job for two channels: the matrix shows each channel's ready and blocked rows, score
        and top blockers as the API has them, at both widths, and a blocker leads to its issues."""
        b = self.browser
        b.driver.set_window_size(1440, 1000)
        b.open(self.base + "/console/upload")
        b.wait(lambda: b.driver.find_elements(By.CSS_SELECTOR, "#channel-list input"),
               what="the upload form")
        b.driver.set_script_timeout(60)
        answer = b.driver.execute_async_script(UPLOAD_JS, channels_csv(), PLATFORMS)
        self.assertNotIn("error", answer, answer)
        job_id = answer["job"]["id"]
        job = b.wait(lambda: (lambda j: j if j["status"] == "done" else None)(
            self.console_api(f"/jobs/{job_id}", issues="none")), timeout=120, what="the job to finish")
        self.assertNotIn("issues", job)
        channels = job["channels"]
        self.assertEqual(list(channels), PLATFORMS.split(","))
        self.assertTrue(any(c["top_blockers"] for c in channels.values()), channels)
        self.assertTrue(any(c["ready"] for c in channels.values()), channels)
        summary = self.console_api(f"/jobs/{job_id}/summary")

        def cell_text(root, channel, key):
            return root.find_element(By.CSS_SELECTOR, f"[data-channel='{channel}'] [data-key='{key}'], "
                                                      f"td[data-channel='{channel}'][data-key='{key}']").text

        for width in (1440, 375):
            b.driver.set_window_size(width, 1000)
            b.open(f"{self.base}/console/job?id={job_id}")
            self.wait_ready()
            self.wait_issues()
            section = b.driver.find_element(By.ID, "channels")
            self.assertTrue(section.is_displayed())
            wide = b.driver.find_element(By.CSS_SELECTOR, "#channels .channels-wide")
            cards = b.driver.find_element(By.ID, "channels-cards")
            shown = wide if width >= 768 else cards
            self.assertTrue(shown.is_displayed())
            self.assertFalse((cards if width >= 768 else wide).is_displayed())
            if width >= 768:  # channels are the columns
                heads = [h.get_attribute("data-channel") for h in wide.find_elements(By.CSS_SELECTOR, "thead th")]
            else:  # one card per channel
                heads = [c.get_attribute("data-channel") for c in cards.find_elements(By.TAG_NAME, "article")]
            self.assertEqual(heads, list(channels))
            for name, c in channels.items():
                self.assertEqual(cell_text(shown, name, "ready"), str(c["ready"]))
                self.assertEqual(cell_text(shown, name, "blocked"), str(c["blocked"]))
                self.assertEqual(cell_text(shown, name, "score"), str(c["score"]))
                links = shown.find_elements(By.CSS_SELECTOR, f"a[data-channel='{name}']")
                self.assertEqual([a.get_attribute("data-filter-code") for a in links],
                                 [t["code"] for t in c["top_blockers"]])
                for a, t in zip(links, c["top_blockers"]):
                    self.assertIn(f"{t['rows']} row", a.find_element(By.XPATH, "..").text)
            if width < 768:
                self.assertEqual(b.driver.execute_script(OVERFLOW_JS), [], "the report overflows at 375 px")
            self.check("report-channels", width)

            # The channel with blockers: its first blocker shows exactly that code's issues.
            name, c = next((n, c) for n, c in channels.items() if c["top_blockers"])
            code = c["top_blockers"][0]["code"]
            expected = sum(x["count"] for x in summary["by_code"] if x["code"] == code)
            link = shown.find_element(By.CSS_SELECTOR, f"a[data-channel='{name}'][data-filter-code='{code}']")
            self.assertEqual(parse_qs(urlparse(link.get_attribute("href")).query).get("code"), [code])
            b._centred(link).click()
            b.wait(lambda: parse_qs(urlparse(b.driver.current_url).query).get("code") == [code],
                   what="the blocker's filter in the address")
            self.wait_issues()
            b.wait(lambda: b.driver.find_element(By.ID, "issues-count").get_attribute("data-count") == str(expected),
                   what=f"{expected} issues of {code}")
            rows = b.driver.find_elements(By.CSS_SELECTOR, "#issues tr")
            self.assertEqual(len(rows), min(expected, 50))
            self.assertEqual({r.get_attribute("data-code") for r in rows}, {code})
            self.assertEqual(b.field("Code").get_attribute("value"), code)
            self.check("report-channels-filtered", width)

        # A job without a platform has no matrix.
        b.driver.set_window_size(1440, 1000)
        b.open(f"{self.base}/console/job?id={self.state['job-375']}")
        self.wait_ready()
        self.assertFalse(b.driver.find_element(By.ID, "channels").is_displayed())


def main():
    run_journeys()


if __name__ == "__main__":
    main()
