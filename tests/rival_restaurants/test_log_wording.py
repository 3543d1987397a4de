"""Issue 27, item 10: the log reads as English — "1 Dumpster card", "3 Dumpster cards",
never "card(s)"."""

from __future__ import annotations

import pytest

from .helpers import events, to_cook
from .test_sporks import joe
from server.games.rival_restaurants.sporks_table import table


@pytest.mark.parametrize("count", [0, 2])
def test_dumpster_cards_returned_are_counted_in_words_a_person_would_use(count: int) -> None:
    s = joe()
    m = s.markets["chop_shop"]
    cards = (list(m.shelf) + list(m.discard))[:count]
    table(s).dumpster["chop_shop"] = cards
    m.shelf, m.discard = [], []
    s, said = events(to_cook(s), 0, {"type": "serve"}, 9000)
    s, more = events(s, 1, {"type": "serve"}, 9000)
    texts = [e.text for e in said + more if e.type == "dumpster_return"]
    assert len(texts) == 1 and "(s)" not in texts[0]
    # the cards put there, and the counter card that rotated out into it at restocking
    assert (" returns 1 Dumpster card to " if count == 0 else f" returns {count + 1} Dumpster cards to ") in texts[0]
