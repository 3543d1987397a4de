"""Issue 27: what a new group trips over on a first evening with Potluck, each moment
played in the browser as the group met it, at 1280 px and at phone width (screenshots
in ``test-artifacts/screenshots/first_evening-*``)."""

from __future__ import annotations

from typing import Any, Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from server.api.invite import is_loopback, network_addresses
from server.games.sneaky_supper.cards import card as ss_card

from .conftest import LAPTOP, PHONE, Pages, no_horizontal_scroll, potluck_server
from .nutty import say_ready
from .rival_restaurants_driver import legal_for as rr_legal_for, show as rr_show, situation as rr_situation
from .sneaky_supper_driver import engine_situation, mount
from .test_accessibility import serious_violations
from .test_watch import create, take_seat

SIZES = {"laptop": LAPTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server listening on every interface, as `potluck serve --host 0.0.0.0` (its URL on 127.0.0.1)."""
    if not network_addresses():
        pytest.skip("this machine is on no network: there is no address to invite friends to")
    with potluck_server(tmp_path_factory.mktemp("lan-serve"), host="0.0.0.0") as base:
        yield base


@pytest.mark.parametrize("size", SIZES)
def test_invite_link_works_for_friends_on_the_network(browser: Any, lan_server: str, size: str) -> None:
    pages = Pages(browser, lan_server, f"first_evening-invite-{size}")
    try:
        with httpx.Client(base_url=lan_server, timeout=20) as api:
            match_id = create(api, "nutty-noodles", players=2, bots=0)
        host = pages.open(f"/matches/{match_id}", viewport=SIZES[size], who="Maria")  # by 127.0.0.1
        take_seat(host, "Maria")
        host.wait_for_selector(".invite[data-reach=network] .qr")
        link = host.input_value("#invite-link")
        assert not is_loopback(urlsplit(link).hostname) and link.endswith(f"/matches/{match_id}")
        assert host.locator(".invite-note.warning").count() == 0
        qr = host.locator(".invite .qr").bounding_box()
        assert qr and qr["width"] >= 120, "the QR code is too small to scan"
        no_horizontal_scroll(host)
        assert serious_violations(host) == []
        pages.shot(host, "waiting-room")
        # The friend opens the link from the network and takes the other seat.
        friend = pages.open(link, viewport=PHONE, who="Priya")
        take_seat(friend, "Priya")
        for page in (host, friend):
            page.wait_for_selector(".nn")
    finally:
        pages.close()
    assert pages.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_invite_link_warns_when_the_server_listens_on_this_computer_only(pages: Pages, api: httpx.Client,
                                                                         size: str) -> None:
    match_id = create(api, "nutty-noodles", players=2, bots=0)  # the shared test server listens on 127.0.0.1
    page = pages.open(f"/matches/{match_id}", viewport=SIZES[size], who="Maria")
    note = page.wait_for_selector(".invite[data-reach=this_computer] .invite-note.warning")
    assert "this computer only" in note.inner_text() and "--host 0.0.0.0" in note.inner_text()
    pages.shot(page, f"loopback-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_rules_pages_show_lists_as_lists_and_fold_the_developers_part(pages: Pages, size: str) -> None:
    page = pages.open("/games/snollygoster/rules", viewport=SIZES[size])
    turn = page.locator("h2:text-is('A turn') + p + ol > li")
    assert turn.count() == 3 and turn.nth(2).locator("ul > li").count() == 4
    folded = page.locator("details.developers").first
    assert not folded.evaluate("d => d.open") and not folded.locator("code").first.is_visible()
    no_horizontal_scroll(page)
    pages.shot(page, f"rules-{size}")


LAPTOP_800 = {"width": 1280, "height": 800}


def play_now(page: Any, game: str, name: str = "Maria") -> None:
    page.fill("#player-name", name)
    page.click(f".game-card[data-game='{game}'] button.play-now")
    page.wait_for_url("**/matches/*")


def match_options(page: Any) -> dict[str, Any]:
    match_id = page.get_attribute("#match", "data-match")
    return httpx.get(f"{page.url.split('/matches/')[0]}/api/matches/{match_id}", timeout=20).json()["options"]


@pytest.mark.parametrize("size", {"laptop": LAPTOP_800, "phone": PHONE})
def test_nutty_noodles_waits_until_you_are_ready_with_the_whole_table_in_view(pages: Pages, size: str) -> None:
    viewport = LAPTOP_800 if size == "laptop" else PHONE
    page = pages.open("/", viewport=viewport, who="Maria")
    play_now(page, "nutty-noodles")
    page.wait_for_selector(".nn[data-phase=ready] button.ready")
    for bot in ("Bot 1", "Bot 2"):  # the bots are ready at once; the dice still wait for Maria
        page.wait_for_selector(f".log-entry:has-text('{bot} is ready.')")
    assert page.locator(".nn-dice.live").count() == 0 and page.locator(".nn").get_attribute("data-throws") == "0"
    assert "ready" in page.inner_text("#prompt-text")
    if size == "laptop":  # the monsters, every bowl and your tokens, without scrolling
        for part in (".nn-tables", ".nn-bowls .bowl >> nth=-1", ".nn-tokens"):
            box = page.locator(part).bounding_box()
            assert box and box["y"] + box["height"] <= viewport["height"], f"{part} is below the fold"
    no_horizontal_scroll(page)
    assert serious_violations(page) == []
    pages.shot(page, f"ready-{size}")
    page.keyboard.press("Space")
    page.wait_for_selector(".nn[data-phase=roll], .nn[data-phase=race], .nn[data-phase=closing]")
    assert page.locator(".log-entry:has-text('Everyone is ready')").count() == 1


@pytest.mark.parametrize("size", SIZES)
def test_timers_have_a_pace_in_seconds_relaxed_against_bots_by_default(pages: Pages, size: str) -> None:
    page = pages.open("/", viewport=SIZES[size], who="Maria")
    page.fill("#player-name", "Maria")
    page.click(".game-card[data-game='snollygoster'] button.setup")
    form = page.locator("form.create-form[data-game='snollygoster']")
    pace, window = form.locator("select[name=timer-pace]"), form.locator("[data-option=window_ms]")
    assert pace.input_value() == "normal" and window.input_value() == "8"  # friends only: normal
    assert "(seconds)" in form.locator("label[for=opt-snollygoster-window_ms]").text_content()
    form.locator("select[name=bots]").select_option("1")
    assert pace.input_value() == "relaxed" and window.input_value() == "16"  # against a bot: relaxed
    pace.select_option("fast")
    assert window.input_value() == "4"
    pace.select_option("relaxed")
    form.locator("details.more-options summary").click()
    form.locator("[data-option=turn_ms]").fill("300")  # one timer by hand: the pace says so
    assert pace.input_value() == "custom"
    no_horizontal_scroll(page)
    pages.shot(page, f"pace-{size}")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/matches/*")
    options = match_options(page)
    assert (options["window_ms"], options["turn_ms"], options["step_ms"]) == (16_000, 300_000, 90_000)
    # Play now against bots: every timer relaxed.
    page.goto("/")
    play_now(page, "rival-restaurants")
    options = match_options(page)
    assert (options["claim_ms"], options["auction_ms"], options["move_ms"], options["market_ms"]) == \
        (30_000, 40_000, 60_000, 120_000)


@pytest.mark.parametrize("size", SIZES)
def test_the_prompt_and_its_countdown_stay_in_view_and_a_change_never_scrolls(pages: Pages, api: httpx.Client,
                                                                            size: str) -> None:
    match_id = create(api, "rival-restaurants", players=3, bots=2)
    page = pages.open(f"/matches/{match_id}", viewport=SIZES[size], who="Maria")
    take_seat(page, "Maria")
    page.wait_for_selector(".rr")
    page.wait_for_selector("#countdown:not([hidden])")
    # Scrolled down, but not to the very end: a change may make the page a little shorter, and
    # a browser then clamps the scroll — what must not happen is the page scrolling itself.
    scrolled = page.evaluate("""(() => {
        const room = document.documentElement.scrollHeight - window.innerHeight;
        window.scrollTo(0, Math.round(Math.max(room - 200, room / 2)));
        return window.scrollY; })()""")
    assert scrolled > 100
    seq = int(page.get_attribute("#match", "data-seq"))
    page.wait_for_selector(f"#match:not([data-seq='{seq}']):not([data-seq='{seq + 1}'])")  # the bots moved twice
    assert page.evaluate("window.scrollY") == scrolled
    for part in ("#prompt-text", "#countdown"):
        box = page.locator(part).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= SIZES[size]["height"], f"{part} is out of view"
    pages.shot(page, f"sticky-prompt-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_a_refused_move_says_why_where_the_player_looked(pages: Pages, api: httpx.Client, size: str) -> None:
    match_id = create(api, "nutty-noodles", players=2, bots=0, ready_check=True)
    page = pages.open(f"/matches/{match_id}", viewport=SIZES[size], who="Maria")
    take_seat(page, "Maria")
    assert api.post(f"/api/matches/{match_id}/join", json={"name": "Priya"}).status_code == 200
    # Two clicks before the server answers the first: the second is refused, and says why.
    page.wait_for_selector("button.ready").evaluate("b => { b.click(); b.click(); }")
    bubble = page.wait_for_selector(".refusal-bubble")
    assert bubble.inner_text() == "You said you are ready already."
    assert page.locator("#refusal").inner_text() == "You said you are ready already."
    assert serious_violations(page) == []
    pages.shot(page, f"refusal-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_a_wrong_serve_says_what_was_wrong(pages: Pages, api: httpx.Client, size: str) -> None:
    match_id = create(api, "nutty-noodles", players=2, bots=1, tie_window_ms=0)
    page = pages.open(f"/matches/{match_id}", viewport=SIZES[size], who="Maria")
    take_seat(page, "Maria")
    page.wait_for_selector("button.roll, .nn-dice.live")
    if page.locator("button.roll").count():
        page.click("button.roll")
    page.wait_for_selector(".nn-dice.live")
    wrong = page.evaluate("""() => {
        const dice = new Set([...document.querySelectorAll('.nn-dice.live .die')].map(d => d.dataset.face)
                             .filter(f => f !== 'blank'));
        const same = (b) => { const i = b.dataset.ingredients.split(' ').filter(Boolean);
                              return i.length === dice.size && i.every(x => dice.has(x)); };
        return [...document.querySelectorAll('.bowl')].find(b => !same(b)).dataset.bowl;
    }""")
    page.click(".nn-tables [data-table='takeaway']")
    page.click(f".bowl[data-bowl='{wrong}']")
    feedback = page.wait_for_selector(".nn-feedback.wrong, .nn-feedback.late", state="attached")
    if "wrong" in feedback.get_attribute("class"):
        assert "the dice asked for" in feedback.inner_text()
        pages.shot(page, "wrong-serve")


@pytest.fixture(scope="module")
def standin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose stand-ins take an absent player's seat after 2 s (not 90)."""
    with potluck_server(tmp_path_factory.mktemp("standin-serve"), POTLUCK_STANDIN_AFTER_S="2") as base:
        yield base


def greeting_of(page: Any, base: str, match_id: str) -> Any:
    """The greeting dialog on ``page``; if it does not come, a failure that says what the page
    and the server held then (it failed once in ~15 runs under load, cause not yet found)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        return page.wait_for_selector("#greeting .greeting")
    except PlaywrightTimeout:
        held = page.evaluate("""() => ({seq: document.querySelector('[data-seq]')?.dataset.seq,
            you: document.querySelector('[data-you]')?.dataset.you, conn: document.getElementById('conn')?.dataset.state,
            log: [...document.querySelectorAll('#log li')].slice(-5).map(e => e.textContent)})""")
        summary = httpx.get(f"{base}/api/matches/{match_id}", timeout=20).json()
        raise AssertionError(f"no greeting: the page held {held}; the server's seats {summary['seats']}, "
                             f"status {summary['status']}") from None


@pytest.mark.parametrize("size", SIZES)
def test_stand_in_moves_are_marked_and_the_friend_is_greeted_on_return(browser: Any, standin_server: str,
                                                                       size: str) -> None:
    pages = Pages(browser, standin_server, f"first_evening-standin-{size}")
    try:
        with httpx.Client(base_url=standin_server, timeout=20) as api:
            match_id = create(api, "nutty-noodles", players=2, bots=0, tie_window_ms=0)
        maria = pages.open(f"/matches/{match_id}", viewport=SIZES[size], who="Maria")
        take_seat(maria, "Maria")
        priya = pages.open(f"/matches/{match_id}", viewport=SIZES[size], who="Priya")
        take_seat(priya, "Priya")
        priya.wait_for_selector(".nn")
        context = priya.context
        priya.close()  # Priya's phone goes to sleep
        badge = maria.wait_for_selector(".player:has(.pname:text-is('Priya')) .tag.standin")
        assert "a bot plays for them" in badge.text_content()
        # The stand-in plays (throws, serves) in Priya's name: each of its lines says so.
        if maria.wait_for_selector("button.roll, .log-entry.by-standin").evaluate("e => e.tagName") == "BUTTON":
            maria.click("button.roll")
        line = maria.wait_for_selector(".log-entry.by-standin")
        assert line.text_content().startswith("bot for PriyaPriya ")
        pages.shot(maria, "marked")
        # Back: Priya is told what was played for her.
        back = context.new_page()
        pages.watch(back, "Priya back")
        back.goto(f"/matches/{match_id}")
        dialog = greeting_of(back, standin_server, match_id)
        assert "Welcome back, Priya" in dialog.inner_text() and "a stand-in bot played for you" in dialog.inner_text()
        assert back.locator("#greeting .greeting-moves li").count() >= 1
        no_horizontal_scroll(back)
        assert serious_violations(back) == []
        pages.shot(back, "greeting")
        back.click("#greeting button:text-is('Back to the table')")
        assert back.locator("#greeting").count() == 0
        maria.wait_for_selector(".player:has(.pname:text-is('Priya')) .tag.standin", state="detached")
    finally:
        pages.close()
    assert pages.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_sneaky_supper_noise_bar_counts_noise_not_cards(pages: Pages, size: str) -> None:
    page = pages.open("/games/sneaky-supper/rules", viewport=SIZES[size], who="renderer")
    # A turn with a card of 2 Noise or more drawn (and the total under the bust line).
    view, legal = engine_situation(lambda g, s: s.phase == "turn" and s.turn.path and 1 < s.turn.noise() < 4
                                   and any(c.noise >= 2 for c in map(ss_card, s.turn.path)))
    mount(page, view, legal)
    noise = view["floorplan"]["noise"]
    cells = page.locator(".ss-meter .ss-block:not(.hushed) .ss-unit").all_inner_texts()
    assert cells == [str(n) for n in range(1, noise + 1)], "each point of Noise is one cell, counted 1, 2, 3…"
    assert page.locator(".ss-meter-value b").inner_text() == str(noise)
    no_horizontal_scroll(page)
    pages.shot(page, f"noise-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_an_action_card_that_cannot_be_played_now_stays_visible_with_the_reason(pages: Pages, size: str) -> None:
    page = pages.open("/games/rival-restaurants/rules", viewport=SIZES[size], who="renderer")
    s = rr_situation("market")  # Ann at the market, with Swipe, Home Delivery and Menu Shake-up
    s.chefs[0].actions, s.today[0].played = ["swipe-1", "home_delivery-1"], "menu_shakeup-1"
    assert rr_legal_for(s, 0, {"type": "play", "card": "home_delivery-1"}) == \
        "You have already played an action card today."
    rr_show(page, s, 0)
    card = page.locator(".rr-plays [data-card='home_delivery-1']")
    assert card.is_visible() and card.is_disabled()
    assert card.locator(".rr-why-not").inner_text() == "One action card a day: you have played Menu Shake-up today."
    no_horizontal_scroll(page)
    pages.shot(page, f"unplayable-{size}")
    # Before the market: the card says when it can be played.
    s = rr_situation("move")
    s.chefs[0].actions = ["home_delivery-1"]
    rr_show(page, s, 0)
    assert page.locator(".rr-plays [data-card='home_delivery-1'] .rr-why-not").inner_text() == \
        "It is played in BUY and BARTER (now: MONEY and MOVE)."
