"""axe-core on every page of a night, on a 390 px phone, in Chinese and in English: no serious or critical
violation. The table page does not move while it loads (cumulative layout shift below 0.05)."""
import time

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from ledger.services import nights as services
from ledger.services.adjustments import adjustment_record
from ledger.services import evenings
from ledger.services import sharing as join_services

from tests.browser_helpers import asgi_server, chromium, serious, sign_in  # noqa: F401 (fixtures)
from tests.evening_helpers import on_discard, self_draw, two_tables
from tests.evening_helpers import table as evening_table

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
LANGUAGES = ("zh-hans", "en")


@pytest.fixture
def nights(transactional_db):
    """An open night with a few hands and an adjustment, a closed and settled night, an evening of two tables."""
    owner = get_user_model().objects.create_user("owner", password="pw-owner")
    keeper = get_user_model().objects.create_user("keeper", password="pw-keeper")
    group = services.personal_group(owner)
    night = evening_table(owner, group, None, ("张三", "李四", "王五", "赵六"), title="周五夜",
                          hands=[self_draw(1, "qing_yi_se"), on_discard(0, 2), self_draw(3)])
    night.scorekeepers.add(keeper)
    adjustment_record(night=night, by=owner, data={"kind": "transfer", "from": 0, "to": 3, "amount": "5",
                                                   "reason": "迟到"})
    settled = evening_table(owner, group, None, ("张三", "李四", "王五", "赵六"), title="周六夜",
                            hands=[self_draw(2, "dui_dui_hu"), on_discard(1, 3)])
    settled = services.night_close(night=settled, by=owner)
    evenings.settle_night(by=owner, night=settled)
    evening, _, _ = two_tables(owner, group)
    evenings.settle_evening(by=owner, evening=evening)
    view = join_services.link_renew(night=night, by=owner, kind="view")
    return {"night": night, "settled": settled, "evening": evening, "view": view.token}


def pages(nights):
    night, settled = nights["night"].pk, nights["settled"].pk
    return {
        "keeper": [f"/nights/{night}/", f"/nights/{night}/hands/", f"/nights/{night}/audit/",
                   f"/nights/{night}/settle/", f"/nights/{night}/adjustments/new/", "/rules/"],
        "owner": [f"/nights/{night}/", f"/nights/{settled}/", f"/nights/{settled}/settle/",
                  f"/nights/{settled}/hands/", f"/nights/{settled}/audit/", f"/evenings/{nights['evening'].pk}/", "/"],
        None: [f"/v/{nights['view']}/", "/rules/"],
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_serious_or_critical_violation_on_the_pages_of_a_night(asgi_server, nights, language):  # noqa: F811
    problems = []
    with chromium() as browser:
        for user, urls in pages(nights).items():
            context = browser.new_context(**PHONE, bypass_csp=True)  # the page's CSP refuses the injected axe
            page = context.new_page()
            if user:
                sign_in(page, asgi_server, user, f"pw-{user}")
            context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": asgi_server}])
            for url in urls:
                page.goto(f"{asgi_server}{url}")
                assert page.locator("html").get_attribute("lang") == language
                for v in serious(page):
                    problems.append(f"{user or 'view link'} {url}: {v['impact']} {v['id']} {v['targets']} {v['help']}")
            context.close()
    assert not problems, "\n".join(problems)


SHIFTS = """() => new Promise(done => {
  let sum = 0;
  new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput) sum += e.value; })
    .observe({type: 'layout-shift', buffered: true});
  setTimeout(() => done(sum), 1500);
})"""


def slowly(route):
    time.sleep(0.4)
    route.continue_()


@pytest.mark.parametrize("who", ["keeper", None])
def test_the_table_page_does_not_shift_while_it_loads(asgi_server, nights, who):  # noqa: F811
    """Scripts arrive late, as on a phone's network: the page is painted before they draw, and must not move."""
    with chromium() as browser:
        page = browser.new_context(**PHONE).new_page()
        if who:
            sign_in(page, asgi_server, who, f"pw-{who}")
        page.route("**/*.js", slowly)
        url = f"/nights/{nights['night'].pk}/" if who else f"/v/{nights['view']}/"
        page.goto(f"{asgi_server}{url}", wait_until="load")
        shift = page.evaluate(SHIFTS)
        print(f"cumulative layout shift of {url}: {shift:.4f}")
        assert shift < 0.05
