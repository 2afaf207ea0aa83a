#!/usr/bin/env python3
"""Drives the admin console of a live `kindred serve` in a real browser (Debian's chromium and
chromium-driver, headless, through Selenium), as an operator would:

  log in -> search the subscriptions table -> open a detail view -> "sync this user now" (the
  POST answers with a redirect to the detail page: a reload shows it without posting again) and
  read the last provider answers (the RevenueCat exchanges, personal fields "[redacted]", the
  personal values in RC_PERSONAL nowhere in the page) -> the same with "Stripe only" chosen (the
  RevenueCat answers stay as they were) and with "RevenueCat only" (they are replaced) ->
  run the user-fields backfill's dry run through its CSRF-protected form -> check the report ->
  apply it (redirected to the table; a reload does not apply it again) -> post a form whose CSRF
  field was removed and check that the server refuses it (403) ->
  walk the overview, users (search, a user's page, export the user's data as a JSON download,
  revoke every session), jobs (run one now), queues, push, realtime, operators (add one, choose
  a time zone) and audit log pages, saving a screenshot of each at 1280 and 390 pixels wide into
  SCREENSHOTS (or $ADMIN_SCREENSHOTS), and checking that no page is wider than the window and
  that dates are shown in the operator's time zone (UTC, then the one chosen).

Usage: admin_console_browser.py BASE_URL EMAIL PASSWORD SEARCH USER_ID [SCREENSHOTS]
(PASSWORD may be "-" to read it from ADMIN_PASSWORD). Prints one "ok: ..." line per step and
exits 0; any failed check prints "FAIL: ..." and exits 1.
"""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait


def check(condition, message):
    if not condition:
        print("FAIL: " + message)
        sys.exit(1)
    print("ok: " + message)


def browser():
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1400,1000"):
        options.add_argument(argument)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def at(driver, url):
    """Whether the browser reaches `url` within 10 s (a click's navigation may still be going)."""
    try:
        WebDriverWait(driver, 10).until(lambda d: d.current_url == url)
        return True
    except Exception:
        return False


def navigate(driver, element):
    """Clicks `element` and waits up to 20 s until the page it leaves is gone (a form post or link
    replaces the document), so the next read sees the new page and never the old one mid-load."""
    page = driver.find_element(By.TAG_NAME, "html")
    name = element.get_attribute("id") or element.text
    element.click()
    wait_until_replaced(driver, page, "the click on %r" % name)


def wait_until_replaced(driver, page, what):
    """Waits up to 20 s until `page` (the old document's root) is stale, then until the new
    document has loaded. Other WebDriver errors while the browser is between documents (seen
    under load: the old document detaching while it is asked) are retried, not failed on."""
    deadline = time.time() + 20
    last = None
    while True:
        try:
            page.is_enabled()
        except StaleElementReferenceException:
            break
        except WebDriverException as error:
            last = error
        if time.time() > deadline:
            print("FAIL: %s did not load a new page within 20 s%s"
                  % (what, " (last error: %s)" % str(last).strip() if last else ""))
            sys.exit(1)
        time.sleep(0.05)
    while True:
        try:
            if driver.execute_script("return document.readyState") == "complete":
                return
        except WebDriverException as error:
            last = error
        if time.time() > deadline:
            print("FAIL: the page after %s did not finish loading within 20 s%s"
                  % (what, " (last error: %s)" % str(last).strip() if last else ""))
            sys.exit(1)
        time.sleep(0.05)


def reload(driver):
    """Reloads the page (a POST's result would ask to re-send it; a GET reloads quietly) and
    waits until the new document has loaded."""
    page = driver.find_element(By.TAG_NAME, "html")
    driver.refresh()
    wait_until_replaced(driver, page, "the reload")


def screenshots(driver, folder, name):
    """Saves the page at 1280 and 390 pixels wide (`<name>-1280.png`, `<name>-390.png`) and
    checks that at each width the page fits the window (tables scroll inside their frame)."""
    for width in (1280, 390):
        driver.set_window_size(width, 900)
        WebDriverWait(driver, 5).until(
            lambda d: d.execute_script("return window.innerWidth") <= width)
        overflow = driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        check(overflow <= 1, "%s fits %d px without sideways scrolling (overflow %s px)" % (name, width, overflow))
        path = os.path.join(folder, "%s-%d.png" % (name, width))
        check(driver.save_screenshot(path) and os.path.getsize(path) > 0, "saved %s" % path)
    driver.set_window_size(1400, 1000)


def raw_answers(driver):
    """The detail page's "Last provider answers" by provider: each block's whole text ("<provider>
    at <time>: <outcome>" then the exchanges as JSON) and its exchanges, parsed."""
    answers = {}
    for block in driver.find_elements(By.CSS_SELECTOR, "#raw pre"):
        text = block.get_attribute("textContent")
        header, _, exchanges = text.partition("\n")
        answers[header.split(" ", 1)[0]] = (text, json.loads(exchanges))
    return answers


def check_revenuecat_answers(driver, user_id, personal):
    """Checks the RevenueCat block of the detail page: the customer read and the subscription list,
    both answered 200, the subscriber attributes redacted and no personal value anywhere in the
    page. Returns the block's text."""
    answers = raw_answers(driver)
    check("revenuecat" in answers, "the last provider answers have a RevenueCat block (had %s)" % sorted(answers))
    text, exchanges = answers["revenuecat"]
    check(text.split("\n", 1)[0].endswith(": ok"), "the RevenueCat block says the sync went well")
    customer = "/v2/projects/proj1/customers/" + user_id
    seen = [(e["method"], e["path"], e["status"]) for e in exchanges]
    check(seen[:1] == [("GET", customer, 200)],
          "the RevenueCat answers show the customer read: GET %s -> 200%s" % (customer, "" if seen[:1] == [("GET", customer, 200)] else " (was %r)" % seen))
    check(seen[1:] == [("GET", customer + "/subscriptions", 200)],
          "the RevenueCat answers show the subscription list read: GET %s/subscriptions -> 200" % customer)
    listed = json.loads(exchanges[1]["body"])
    check([item.get("store_subscription_identifier") for item in listed["items"]] == ["1000000000000001"],
          "the subscription list answer is shown (store ids are not personal)")
    body = json.loads(exchanges[0]["body"])
    check(body.get("id") == user_id and body.get("attributes") == "[redacted]",
          "the RevenueCat subscriber attributes are shown as [redacted]")
    source = driver.page_source
    check(personal and all(value and value not in source for value in personal),
          "the subscriber's e-mail and name never appear in the page source")
    return text


def sync_one_provider(driver, provider, name):
    """Chooses `provider` on the detail page, syncs, and checks the notice names it."""
    Select(driver.find_element(By.ID, "sync-provider")).select_by_value(provider)
    navigate(driver, driver.find_element(By.ID, "sync"))
    notice = driver.find_element(By.ID, "notice").text
    check(notice.startswith("Synced %s: 0 plan entries appended" % provider),
          "a %s-only sync says so (was %r)" % (name, notice))


def walk_operations_pages(driver, base, user_id):
    """The pages of issue 28, walked as an operator would, with screenshots of each."""
    folder = sys.argv[6] if len(sys.argv) > 6 else os.environ.get("ADMIN_SCREENSHOTS", "admin-screenshots")
    os.makedirs(folder, exist_ok=True)

    driver.get(base + "/admin")
    check(driver.find_element(By.CSS_SELECTOR, "nav.sections a[aria-current=page]").text == "Overview",
          "the overview is the current section")
    pulse = driver.find_element(By.CSS_SELECTOR, "article[data-app=pulse]")
    check("Accounts 1" in pulse.text.replace("\n", " "), "the overview counts Pulse's one account")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#apps svg.spark polyline")) >= 5,
          "each app's new-accounts number has its 30-day chart")
    check("Subscriptions" in driver.find_element(By.ID, "domains").text, "billing's numbers come through the core")
    started = driver.find_element(By.CSS_SELECTOR, "#uptime time")
    check((started.get_attribute("title") or "").endswith("(UTC)"), "each date's tooltip has its UTC value (admin.js ran under the CSP)")
    check(started.text.endswith(" UTC") and started.text != started.get_attribute("datetime"),
          "dates are shown in the operator's time zone, UTC by default (was %r)" % started.text)
    screenshots(driver, folder, "overview")

    driver.get(base + "/admin/users")
    check("Search by id, e-mail or name" in driver.find_element(By.ID, "count").text, "the users page says what to do first")
    driver.find_element(By.ID, "q").send_keys("browser-tester@example.com")
    navigate(driver, driver.find_element(By.ID, "search"))
    rows = driver.find_elements(By.CSS_SELECTOR, "#users tbody tr")
    check(len(rows) == 1 and user_id in rows[0].text, "the user search finds the user by e-mail")
    screenshots(driver, folder, "users")
    navigate(driver, rows[0].find_element(By.TAG_NAME, "a"))
    check(driver.find_element(By.ID, "user-id").text == user_id, "the user's page is theirs")
    check(driver.find_element(By.ID, "providers").text == "password", "the user's page lists their sign-in method")
    screenshots(driver, folder, "user")
    # Export: the CSRF-protected form answers a JSON download; the page stays.
    downloads = os.path.abspath(os.path.join(folder, "downloads"))
    os.makedirs(downloads, exist_ok=True)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    exported = os.path.join(downloads, "kindred-user-%s.json" % user_id)
    if os.path.exists(exported):
        os.remove(exported)
    driver.find_element(By.ID, "export").click()
    deadline = time.time() + 20
    while not os.path.exists(exported) and time.time() < deadline:
        time.sleep(0.1)
    check(os.path.exists(exported), "the export button downloads kindred-user-<id>.json")
    with open(exported, encoding="utf-8") as handle:
        document = json.load(handle)
    check(document.get("user", {}).get("id") == user_id and "accounts" in document.get("data", {}),
          "the download is the user's export (their account and every domain's rows)")
    navigate(driver, driver.find_element(By.ID, "revoke-all"))
    check(driver.find_element(By.ID, "notice").text.startswith("Revoked "), "revoking every session says how many")
    check(driver.find_element(By.ID, "live-sessions").text == "0", "no live session is left")

    driver.get(base + "/admin/jobs")
    row = driver.find_element(By.CSS_SELECTOR, "tr[data-job='admin.purge-sessions']")
    navigate(driver, row.find_element(By.CSS_SELECTOR, "button.run"))
    check(driver.current_url == base + "/admin/jobs", "after running a job the browser is on the jobs page (a GET)")
    check(driver.find_element(By.ID, "notice").text.startswith("Ran admin.purge-sessions: ok"), "the job ran now")
    screenshots(driver, folder, "jobs")

    driver.get(base + "/admin/queues")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#queues tbody tr")) >= 1, "the queues page has a row or says all is empty")
    headers = driver.find_element(By.CSS_SELECTOR, "#queues thead").text
    check("Completed (hour)" in headers and "Failed attempts (hour)" in headers, "the queues page has throughput and failure columns")
    screenshots(driver, folder, "queues")

    driver.get(base + "/admin/push")
    check(driver.find_element(By.CSS_SELECTOR, "nav.sections a[aria-current=page]").text == "Push", "the push page is the current section")
    check("Waiting to send" in driver.find_element(By.ID, "backlog").text, "the push page shows the outbox's backlog")
    check("Pruned (30 days)" in driver.find_element(By.CSS_SELECTOR, "#push-apps thead").text,
          "the push page has a pruned tokens column")
    screenshots(driver, folder, "push")

    driver.get(base + "/admin/realtime")
    check(driver.find_element(By.CSS_SELECTOR, "nav.sections a[aria-current=page]").text == "Realtime",
          "the realtime page is the current section")
    check("this replica" in driver.find_element(By.ID, "replica-note").text, "the realtime page says its figures are this replica's")
    connections = driver.find_element(By.ID, "connections").text
    check("Open connections" in connections and "Channels with subscribers" in connections,
          "the realtime page shows connections and channels")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#events svg.spark polyline")) == 2,
          "events per minute are drawn as charts")
    screenshots(driver, folder, "realtime")

    driver.get(base + "/admin/operators")
    driver.find_element(By.ID, "operator-email").send_keys("second@example.com")
    driver.find_element(By.ID, "operator-password").send_keys("another passphrase")
    navigate(driver, driver.find_element(By.ID, "create-operator"))
    check(len(driver.find_elements(By.CSS_SELECTOR, "tr[data-operator='second@example.com']")) == 1,
          "an operator was added from the console")
    Select(driver.find_element(By.ID, "zone")).select_by_visible_text("Asia/Kolkata")
    navigate(driver, driver.find_element(By.ID, "save-zone"))
    check(driver.find_element(By.ID, "notice").text.startswith("Dates are now shown in Asia/Kolkata"),
          "the operator chose a time zone")
    created = driver.find_element(By.CSS_SELECTOR, "#operators time")
    check(created.text.endswith(" GMT+5:30"), "dates are now shown in the operator's zone (was %r)" % created.text)
    screenshots(driver, folder, "operators")

    driver.get(base + "/admin/audit")
    audit = driver.find_element(By.ID, "audit").text
    for action in ("operator.time-zone", "operator.create", "job.run", "user.revoke-all", "user.export", "backfill.user-fields",
                   "subscription.sync", "login"):
        check(action in audit, "the audit log lists %s" % action)
    screenshots(driver, folder, "audit")

    # Keyboard: the first Tab reaches the skip link, which is then visible.
    driver.get(base + "/admin")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    focused = driver.switch_to.active_element
    check(focused.get_attribute("class") == "skip", "the first Tab focuses the skip link")


def main():
    base, email, password, search, user_id = sys.argv[1:6]
    if password == "-":
        password = os.environ["ADMIN_PASSWORD"]
    driver = browser()
    driver.implicitly_wait(5)
    try:
        # An anonymous visitor is sent to the login page.
        driver.get(base + "/admin/subscriptions")
        check(driver.current_url == base + "/admin/login", "anonymous visitor redirected to the login page")
        driver.find_element(By.ID, "email").send_keys(email)
        driver.find_element(By.ID, "password").send_keys("not the password")
        navigate(driver, driver.find_element(By.ID, "login"))
        check("The e-mail address or password is wrong." in driver.find_element(By.ID, "error").text,
              "a wrong password is refused")
        driver.find_element(By.ID, "email").clear()
        driver.find_element(By.ID, "email").send_keys(email)
        driver.find_element(By.ID, "password").send_keys(password)
        navigate(driver, driver.find_element(By.ID, "login"))
        check(at(driver, base + "/admin"), "logged in, on the overview")
        check(email in driver.find_element(By.CLASS_NAME, "who").text, "the header names the operator")
        session = driver.get_cookie("kindred_admin_session")
        check(session is not None and session["httpOnly"] and session.get("sameSite") == "Strict"
              and session["path"] == "/admin", "the session cookie is HttpOnly, SameSite=Strict, Path=/admin")

        # Search.
        driver.get(base + "/admin/subscriptions")
        driver.find_element(By.ID, "q").send_keys(search)
        navigate(driver, driver.find_element(By.ID, "search"))
        rows = driver.find_elements(By.CSS_SELECTOR, "#subscriptions tbody tr")
        check(len(rows) == 1 and user_id in rows[0].text, "the search finds exactly the user's row")
        check("1 subscriptions" in driver.find_element(By.ID, "count").text, "the count says 1")

        # Detail view.
        navigate(driver, rows[0].find_element(By.CLASS_NAME, "details"))
        check(driver.find_element(By.ID, "user-id").text == user_id, "the detail view is the user's")
        status = driver.find_element(By.ID, "computed-status").text
        check(status == "active", "the computed state is active (was %r)" % status)
        plans = driver.find_elements(By.CSS_SELECTOR, "#plans tbody tr")
        check(len(plans) >= 1 and "revenuecat" in plans[0].text, "the plan history lists the RevenueCat entry")

        # "Sync this user now": Post/Redirect/Get back to the detail page; a reload does not post.
        detail_url = driver.current_url
        navigate(driver, driver.find_element(By.ID, "sync"))
        check(driver.current_url == detail_url, "after the sync the browser is on the detail page (a GET)")
        check(driver.find_element(By.ID, "notice").text == "Synced: 0 plan entries appended.",
              "the detail page shows what the sync did")
        # What RevenueCat answered, redacted (its fake holds the purchase and the subscriber's
        # e-mail and name, passed here in RC_PERSONAL one a line). The user has no Stripe
        # customer: Stripe was not asked, so it has no block.
        personal = [line for line in os.environ.get("RC_PERSONAL", "").split("\n") if line]
        first = check_revenuecat_answers(driver, user_id, personal)
        check("stripe" not in raw_answers(driver), "Stripe, which was not asked, has no answers")
        reload(driver)
        check(driver.current_url == detail_url and not driver.find_elements(By.ID, "notice"),
              "a reload shows the detail page without syncing again")

        # The seed's Stripe-only trigger: choose the provider, then sync.
        sync_one_provider(driver, "stripe", "Stripe")
        check(len(driver.find_elements(By.ID, "raw")) == 1, "the detail page has the last provider answers section")
        # Each provider's answers are replaced only by that provider's next sync (docs/billing.md).
        answers = raw_answers(driver)
        check(answers.get("revenuecat", ("",))[0] == first and "stripe" not in answers,
              "a Stripe-only sync leaves the RevenueCat answers as they were")

        # RevenueCat only: its answers are replaced (the customer's last_seen_at moved on).
        sync_one_provider(driver, "revenuecat", "RevenueCat")
        second = check_revenuecat_answers(driver, user_id, personal)
        check(second != first, "a RevenueCat-only sync replaces the RevenueCat answers")

        # The user-fields backfill's dry run, through its CSRF-protected form.
        driver.get(base + "/admin/subscriptions")
        navigate(driver, driver.find_element(By.ID, "backfill-user-fields"))
        summary = driver.find_element(By.ID, "report-summary").text
        check("Dry run: nothing was written." in summary, "the backfill shows a dry-run report")
        changes = driver.find_element(By.ID, "changes").text
        check(user_id in changes, "the report lists the user's change")
        check(len(driver.find_elements(By.ID, "apply")) == 1, "the report offers to write the changes")

        # Apply: Post/Redirect/Get to the table, which says what was written, once.
        navigate(driver, driver.find_element(By.ID, "apply"))
        check(driver.current_url == base + "/admin/subscriptions", "after the apply the browser is on the table (a GET)")
        notice = driver.find_element(By.ID, "notice").text
        check(notice.startswith("Backfill user fields: wrote 1 changes") and user_id in notice,
              "the table shows what the backfill wrote (was %r)" % notice)
        reload(driver)
        check(driver.current_url == base + "/admin/subscriptions" and not driver.find_elements(By.ID, "notice"),
              "a reload shows the table without applying again")
        navigate(driver, driver.find_element(By.ID, "backfill-user-fields"))
        check("0 changes" in driver.find_element(By.ID, "report-summary").text,
              "a new dry run finds nothing left to write")

        # A form posted without its CSRF token is refused.
        driver.get(base + "/admin/subscriptions")
        form = driver.find_element(By.ID, "backfill-user-fields").find_element(By.XPATH, "./..")
        driver.execute_script(
            "arguments[0].querySelector('input[name=csrf]').remove();", form)
        check(len(form.find_elements(By.CSS_SELECTOR, "input[name=csrf]")) == 0, "the CSRF field was removed")
        navigate(driver, driver.find_element(By.ID, "backfill-user-fields"))
        error = driver.find_element(By.ID, "error").text
        check("security token is missing or wrong" in error, "the form without its CSRF token is refused")
        check(driver.title.startswith("Forbidden"), "the refusal page is titled Forbidden")

        walk_operations_pages(driver, base, user_id)

        # Logging out ends the session.
        driver.get(base + "/admin/subscriptions")
        navigate(driver, driver.find_element(By.ID, "logout"))
        check(at(driver, base + "/admin/login"), "logged out")
        driver.get(base + "/admin/subscriptions")
        check(at(driver, base + "/admin/login"), "after logout the console needs a login again")
    finally:
        driver.quit()
    print("PASSED")


if __name__ == "__main__":
    main()
