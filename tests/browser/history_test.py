#!/usr/bin/env python3
"""Issue 33 points 4, 5 and 7 in a real browser (label: browser), at 1440 and 375 px:

- a file over the size limit is refused on the upload page before anything is sent;
- a second upload of the same feed, with some issues fixed, shows them as resolved on the job
  page, and the feed's score trend moves; the jobs list shows checks and feed and finds jobs by
  file name;
- on the free plan, a file with more rows than are left of the month's quota is offered its first
  rows; checking them works, from the preview's kept upload (the file is sent once), and the page
  says when the quota renews as a date.

  history_test.py --gateway BIN --validator BIN [--notifier BIN] --dqctl BIN --source DIR
                  --artifacts DIR
"""
import os

from selenium.webdriver.common.by import By

from harness import Journey, run_journeys

PASSWORD = "correct horse battery"

# Wraps the page's fetch so the test can see what each request carried (method, URL, whether a
# body was sent): the file must be sent once, by the preview.
RECORD_FETCH = """
window.__sent = [];
const original = window.fetch;
window.fetch = (url, options = {}) => {
  const body = options.body;
  window.__sent.push({method: options.method || 'GET', url: String(url),
                      file: body instanceof FormData && body.has('file')});
  return original(url, options);
};
"""


def catalogue(path, broken_prices, rows=20):
    """A products file; the SKUs numbered in broken_prices have a price that is not a number."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("sku,title,price,currency\n")
        for r in range(1, rows + 1):
            price = "abc" if r in broken_prices else "9.99"
            f.write(f"SKU-{r},Ceramic mug {r},{price},USD\n")
    return path


class HistoryTest(Journey):
    """One merchant on the free plan. The steps run in order and share the browser."""
    work_prefix = "dq-history-test-"


    # --- helpers ------------------------------------------------------------------------------
    def check_page(self, name, allowed_api_statuses=()):
        """No console errors, no serious axe violations, nothing wider than the page at 375 px
        (the page, and every table and control in it), screenshots at 375 and 1440 px."""
        b = self.browser
        self.assertEqual(b.collect_console_errors(allowed_api_statuses), [], f"browser console errors on {name}")
        violations = b.axe()
        self.assertEqual([(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in violations], [],
                         f"axe-core serious/critical violations on {name}")
        self.assertTrue(b.no_horizontal_scroll(375), f"{name} scrolls sideways at 375 px")
        b.driver.set_window_size(375, 900)
        wide = b.driver.execute_script("""
            const out = [];
            for (const e of document.querySelectorAll('#history *, #quota-choice *, #jobs-filter, .jobs-search *')) {
              const r = e.getBoundingClientRect();
              if (r.width > 0 && (r.right > document.documentElement.clientWidth + 1 || r.left < -1)) out.push(e.tagName + '.' + e.className);
            }
            return out;""")
        b.driver.set_window_size(1440, 1000)
        self.assertEqual(wide, [], f"elements wider than the screen at 375 px on {name}")
        for width in (375, 1440):
            b.screenshot(os.path.join(self.artifacts, f"history-{name}-{width}.png"), width)

    def choose_file(self, path):
        b = self.browser
        b.open(self.base + "/console/upload")
        b.wait(lambda: b.driver.find_element(By.ID, "size-limit").text, what="the size limit")
        b.driver.execute_script(RECORD_FETCH)
        b.field("File to check").send_keys(path)
        b.wait(lambda: b.driver.find_element(By.ID, "preview-message").text.strip()
               and "Reading" not in b.driver.find_element(By.ID, "preview-message").text, what="the preview")

    def sent(self):
        return self.browser.driver.execute_script("return window.__sent")

    def upload_and_open(self, path, price_check=True):
        b = self.browser
        self.choose_file(path)
        # The "price" check type (the file's own "price" column has a label too: the mapping's).
        box = b.driver.find_element(By.ID, "check-price")
        if price_check and not box.is_selected():
            b._centred(box).click()
        b.button("Start the check").click()
        b.wait(lambda: "done" in b.driver.find_element(By.ID, "progress-text").text, timeout=120,
               what="the job to finish")
        posts = [s for s in self.sent() if s["method"] == "POST"]
        # The file went once, with the preview; Start referred to the kept upload.
        self.assertEqual([(("preview" in s["url"]), s["file"]) for s in posts], [(True, True), (False, False)], posts)
        self.assertIn("upload_id=", posts[1]["url"])
        b.link("Open the report").click()
        b.wait(lambda: not b.driver.find_element(By.ID, "history").get_attribute("hidden"), timeout=60,
               what="the history section")
        return b.driver.current_url.split("id=")[1]

    # --- the steps ----------------------------------------------------------------------------
    def test_01_sign_up_on_the_free_plan(self):
        b = self.browser
        b.open(self.base + "/console/signup")
        b.fill("Your name or company", "Kirei Goods")
        b.fill("E-mail", "history@example.com")
        b.fill("Password", PASSWORD)
        b.button("Sign up").click()
        b.wait(lambda: b.driver.current_url.rstrip("/").endswith("/console"), what="the overview")
        b.wait(lambda: b.driver.find_element(By.ID, "plan").text == "free", what="the plan")
        renews = b.wait(lambda: b.driver.find_element(By.ID, "quota-reset").text, what="the renewal")
        self.assertRegex(renews, r"^The quota renews on 1 [A-Z][a-z]+( \d{4})?\.$")
        b.collect_console_errors(allowed_api_statuses=(401,))

    def test_02_a_file_over_the_size_limit_is_refused_before_it_is_sent(self):
        b = self.browser
        big = os.path.join(self.work, "huge.csv")
        with open(big, "wb") as f:
            f.write(b"sku,title\n")
            f.truncate(60 * 1024 * 1024)  # 60 MB, sparse
        b.open(self.base + "/console/upload")
        limit = b.wait(lambda: b.driver.find_element(By.ID, "size-limit").text, what="the size limit")
        self.assertEqual(limit, "Files may be up to 50 MB.")
        b.driver.execute_script(RECORD_FETCH)
        b.field("File to check").send_keys(big)
        msg = b.alert_text("preview-message", "at most")
        self.assertIn("huge.csv is 60 MB; a file may be at most 50 MB.", msg)
        self.assertEqual(self.sent(), [])
        os.remove(big)

    def test_03_a_second_upload_of_the_feed_shows_what_was_resolved(self):
        b = self.browser
        first = self.upload_and_open(catalogue(os.path.join(self.work, "monday", "shop.csv"), {2, 3, 4}))
        self.assertIn("first checked upload", b.driver.find_element(By.ID, "history-summary").text)
        second = self.upload_and_open(catalogue(os.path.join(self.work, "tuesday", "shop.csv"), {4, 7}))
        summary = b.driver.find_element(By.ID, "history-summary").text
        self.assertRegex(summary, r"^2 issues resolved, 1 new issue and \d+ issues? still open since the upload of \d+ [A-Z][a-z]+")
        history = b.driver.find_element(By.ID, "history")
        self.assertIn("Resolved: SKU-2, SKU-3", history.text)
        self.assertIn("New: SKU-7", history.text)
        # The trend: two uploads, the score moved up, this one marked.
        dots = history.find_elements(By.CSS_SELECTOR, "svg.trend-chart circle")
        self.assertEqual(len(dots), 2)
        ys = [float(d.get_attribute("cy")) for d in dots]
        self.assertLess(ys[1], ys[0], "the second score is higher, so drawn higher")
        self.assertIn("trend-current", dots[1].get_attribute("class"))
        # The link goes to the previous upload's report.
        link = history.find_element(By.CSS_SELECTOR, "#history-summary a")
        self.assertTrue(link.get_attribute("href").endswith(first))
        self.state["feed_jobs"] = (first, second)
        self.check_page("job")

    def test_04_the_jobs_list_shows_checks_and_feed_and_finds_by_file_name(self):
        b = self.browser
        b.link("Jobs").click()
        b.fill("Find jobs by file name", "SHOP")
        b.button("Search").click()
        b.wait(lambda: "filename=SHOP" in b.driver.current_url, what="the search")
        rows = b.wait(lambda: [r for r in b.driver.find_elements(By.CSS_SELECTOR, "#jobs tr") if "shop.csv" in r.text],
                      what="the jobs found")
        self.assertEqual(len(b.driver.find_elements(By.CSS_SELECTOR, "#jobs tr")), 2)
        self.assertIn("price, product", rows[0].text)
        self.assertIn("shop.csv (price, product)", rows[0].text)
        self.check_page("jobs")
        b.link("shop.csv (price, product)").click()
        b.wait(lambda: "feed=" in b.driver.current_url, what="the feed's uploads")
        b.wait(lambda: "Uploads of the feed" in b.driver.find_element(By.ID, "jobs-filter").text)

    def test_05_over_the_quota_the_first_rows_are_offered_and_checked(self):
        b = self.browser
        used = 40  # the two feed uploads
        left = 1000 - used
        path = catalogue(os.path.join(self.work, "big", "big.csv"), {1, 1100}, rows=1200)
        self.choose_file(path)
        choice = b.wait(lambda: b.driver.find_element(By.ID, "quota-choice").is_displayed()
                        and b.driver.find_element(By.ID, "quota-choice-text").text, what="the quota choice")
        self.assertRegex(choice, rf"^This file has 1,200 rows, more than the {left} rows left of this month's "
                                 rf"quota\. You can check its first {left} rows now, or wait until the quota "
                                 r"renews on 1 [A-Z][a-z]+( \d{4})?\.$")
        self.assertNotRegex(b.visible_text(), r"\d+ s\b")
        box = b.field(f"Check only the first {left} rows")
        self.assertTrue(box.is_selected())
        self.check_page("upload-over-quota")
        b.button("Start the check").click()
        done = b.wait(lambda: (lambda t: t if "done" in t else None)(b.driver.find_element(By.ID, "progress-text").text),
                      timeout=120, what="the job to finish")
        self.assertIn(f"its first {left} rows of 1,200 were checked", done)
        posts = [s for s in self.sent() if s["method"] == "POST"]
        self.assertEqual([s["file"] for s in posts], [True, False], posts)
        self.assertIn(f"max_rows={left}", posts[1]["url"])
        # The report says so.
        b.link("Open the report").click()
        rows = b.wait(lambda: b.driver.find_element(By.ID, "history-rows").text, timeout=60, what="the rows note")
        self.assertEqual(rows, f"Only the first {left} rows of this file's 1,200 were checked, as asked at the upload.")
        # Nothing is left now: the next preview says so, with the date, and offers nothing.
        self.choose_file(path)
        text = b.wait(lambda: b.driver.find_element(By.ID, "quota-choice").is_displayed()
                      and b.driver.find_element(By.ID, "quota-choice-text").text, what="the empty quota")
        self.assertRegex(text, r"no rows are left of this month's quota\. It renews on 1 [A-Z][a-z]+( \d{4})?\.$")
        self.assertFalse(b.driver.find_element(By.ID, "first-rows-choice").is_displayed())
        b.button("Start the check").click()
        err = b.alert_text("upload-error", "renews on")
        self.assertNotRegex(err, r"\d+ s\.")
        self.check_page("upload-no-quota", allowed_api_statuses=(429,))


def main():
    run_journeys()


if __name__ == "__main__":
    main()
