"""The lobby and the Nutty Noodles table in a real browser: create a match from the
lobby and race a bot; two people at one table see each other's moves; a reload keeps
the seat; table chat is shown as text, never as HTML."""

from __future__ import annotations

from typing import Any

from .conftest import Pages
from .nutty import RACE, say_ready, serve_by_clicks, serve_by_keys, throw_if_mine


TRACK_SOCKETS = """
    window.__sockets = [];
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
        constructor(...args) { super(...args); window.__sockets.push(this); }
    };
"""


# Records, in the page, the first right/too-late feedback to this player and the table as
# drawn when the first round's winner is shown: the banner and every player's score (one
# draw draws them all).
FIRST_ROUND_WON = """() => {
    window.__first = {feedback: null, win: null};
    const first = window.__first;
    const watch = new MutationObserver(() => {
        const feedback = document.querySelector('.nn-feedback.right, .nn-feedback.late');
        if (!first.feedback && feedback) first.feedback = feedback.innerText;
        const banner = document.querySelector('.nn-banner.win');
        if (!first.win && banner) first.win = {banner: banner.innerText, scores: Object.fromEntries(
            [...document.querySelectorAll('#players .player')].map(
                p => [p.querySelector('.pname').innerText, p.querySelector('.score')?.innerText ?? null]))};
        if (first.feedback && first.win) watch.disconnect();
    });
    watch.observe(document.querySelector('#match'), {childList: true, subtree: true, characterData: true});
}"""


def create_from_lobby(page: Any, name: str, players: int, bots: int) -> None:
    page.fill("#player-name", name)
    page.click(".game-card[data-game='nutty-noodles'] button.setup")
    form = page.locator("form.create-form[data-game='nutty-noodles']")
    form.locator("select[name=players]").select_option(str(players))
    form.locator("select[name=bots]").select_option(str(bots))
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/matches/*")


def test_create_from_lobby_and_play_a_round_against_a_bot(pages: Pages) -> None:
    page = pages.open("/", who="Ann")
    assert page.locator(".game-card[data-game='nutty-noodles'] h3").inner_text() == "Nutty Noodles"
    assert page.locator(".game-card[data-game='nutty-noodles'] a[href='/games/nutty-noodles/rules']").count() == 1
    pages.shot(page, "lobby")
    create_from_lobby(page, "Ann", players=2, bots=1)

    page.wait_for_selector(".nn")
    assert page.locator(".player.you .pname").inner_text() == "Ann"
    say_ready(page)
    page.wait_for_selector(f"button.roll, {RACE}")
    throw_if_mine(page)
    page.evaluate(FIRST_ROUND_WON)
    serve_by_clicks(page)
    # The table as it was drawn with the first round's result: a bot that won throws again
    # at once and can win more rounds before a read from here reaches the page.
    first = page.wait_for_function("() => window.__first.feedback && window.__first.win && window.__first").json_value()
    # Immediate feedback: right (we were first) or too late (the bot was quicker).
    assert first["feedback"] in ("Right!", "Too late!"), first
    assert "wins the monster" in first["win"]["banner"], first
    winner = "Ann" if first["feedback"] == "Right!" else "Bot 1"
    assert winner in first["win"]["banner"], first
    assert first["win"]["scores"][winner] == "1", first
    page.wait_for_selector(".nn-banner.win")
    pages.shot(page, "round-won")
    assert page.locator(".log-entry", has_text="wins").count() >= 1


def test_two_players_see_each_others_moves_and_a_reload_keeps_the_seat(pages: Pages) -> None:
    ann = pages.open("/", who="Ann")
    create_from_lobby(ann, "Ann", players=2, bots=0)
    invite = ann.input_value("#invite-link")
    pages.shot(ann, "waiting-room")

    bea = pages.open(invite, who="Bea")
    bea.fill("#join-name", "Bea")
    bea.click("form.join-form button[type=submit]")
    for page in (ann, bea):
        say_ready(page)
    for page in (ann, bea):
        page.wait_for_selector(".nn[data-phase=roll]")
    names = {id(ann): "Ann", id(bea): "Bea"}
    thrower, other = (ann, bea) if ann.locator("button.roll").count() else (bea, ann)
    assert other.locator("button.roll").count() == 0

    thrower.click("button.roll")
    other.wait_for_selector(".nn-dice.live")  # the thrower's move, seen by the other
    thrower.wait_for_selector(".nn-dice.live .die")  # …and by the thrower (its own patch may come second)
    thrower_faces = thrower.locator(".nn-dice.live .die").evaluate_all("ds => ds.map(d => d.dataset.face)")
    other_faces = other.locator(".nn-dice.live .die").evaluate_all("ds => ds.map(d => d.dataset.face)")
    assert thrower_faces == other_faces

    serve_by_keys(other)  # two key presses
    # The other's move, seen by the thrower: in the log and as the round's winner.
    thrower.wait_for_selector(f".log-entry:has-text('{names[id(other)]} serves')")
    thrower.wait_for_selector(f".nn-banner.win:has-text('{names[id(other)]}')")
    pages.shot(thrower, "thrower-sees-the-serve")

    # Table talk arrives as text, never as markup.
    line = "<b>nice</b> & <img src=x onerror=alert(1)> serve"
    thrower.fill("#chat-input", line)
    thrower.press("#chat-input", "Enter")
    other.wait_for_selector("#chat .chat-text")
    assert other.locator("#chat .chat-text").last.inner_text() == line
    assert other.locator("#chat .chat-text *").count() == 0

    # A reload puts Bea back in her seat, not in the join form. (The init script lets the
    # test cut her connection below.)
    bea_seat = bea.get_attribute("#match", "data-you")
    bea.context.add_init_script(TRACK_SOCKETS)
    bea.reload()
    bea.wait_for_selector(".nn")
    assert bea.get_attribute("#match", "data-you") == bea_seat
    assert bea.locator("#join").is_hidden()
    assert bea.locator(".player.you .pname").inner_text() == "Bea"
    assert bea.locator("#chat-form").is_visible()
    pages.shot(bea, "after-reload")

    # A lost connection comes back by itself, and play goes on: the round's winner throws
    # and both tables show the same dice.
    bea.wait_for_selector("#conn[data-state=online]")
    bea.evaluate("window.__sockets.forEach(ws => ws.close())")
    bea.wait_for_selector("#conn:not([data-state=online])")
    bea.wait_for_selector("#conn[data-state=online]")
    other.click("button.roll")
    for page in (ann, bea):
        page.wait_for_selector(".nn[data-throws='2'] .nn-dice.live")
    faces = [p.locator(".nn-dice.live .die").evaluate_all("ds => ds.map(d => d.dataset.face)") for p in (ann, bea)]
    assert faces[0] == faces[1]
