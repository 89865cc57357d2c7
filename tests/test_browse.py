"""The bestiary browser: filters, sorting, the stat block whole, "Add to encounter" by fours."""

from __future__ import annotations

import pytest

from workbench.apps.bestiary import bestiary_app, bestiary_view
from workbench.calibration.bestiary import sample_bestiary
from workbench.calibration.browse import BestiaryQuery, all_keywords, browse

SAMPLE = sample_bestiary()


@pytest.mark.parametrize(
    ("query", "names"),
    [
        # the three solos of the sample
        (BestiaryQuery(organizations=("solo",)), {"Werewolf", "Medusa", "Manticore"}),
        # kobold minions: Princeps, Sagittarion, Tiro, Veles
        (BestiaryQuery(keywords=("kobold",), organizations=("minion",)),
         {"Kobold Princeps", "Kobold Sagittarion", "Kobold Tiro", "Kobold Veles"}),
        # levels 6 to 8: the two level 6 hobgoblins platoons, the level 6 leader and the level 8 minion
        (BestiaryQuery(levels=(6, 8)),
         {"Hobgoblin Bloodlord", "Hobgoblin Grandguard", "Hobgoblin Redglare", "Bugbear Knightmare"}),
        # text search over names and keywords, every word must match
        (BestiaryQuery(text="goblin sniper"), {"Goblin Sniper"}),
        # EV 70 or more: the manticore (72) and the medusa (84)
        (BestiaryQuery(evs=(70, 100)), {"Manticore", "Medusa"}),
    ],
)
def test_filters(query, names):
    assert {m.name for m in browse(SAMPLE.monsters, query)} == names


def test_sort_by_any_column():
    by_ev = browse(SAMPLE.monsters, BestiaryQuery(sort="ev", descending=True))
    assert [m.name for m in by_ev[:2]] == ["Medusa", "Manticore"]
    by_name = browse(SAMPLE.monsters, BestiaryQuery(sort="name"))
    assert [m.name for m in by_name] == sorted((m.name for m in SAMPLE.monsters), key=str.lower)
    assert "Goblin" in all_keywords(SAMPLE.monsters) and "Undead" not in all_keywords(SAMPLE.monsters)


def test_the_view_counts_and_shows_the_whole_stat_block():
    picked = [m.name for m in SAMPLE.monsters].index("Goblin Warrior")
    view = bestiary_view(SAMPLE, BestiaryQuery(keywords=("goblin",)), picked)
    assert "of 49 stat blocks" in view.counts
    # every feature of the file: the signature ability, the Malice ability and the trait
    for words in ("Spear Charge", "Bury the Point", "Crafty", "Power Roll + 2"):
        assert words in view.stat_block
    assert "None" not in view.stat_block


def test_the_app_adds_minions_by_fours():
    added = []
    app = bestiary_app(on_add=lambda m, n: added.append((m.name, n)))
    app.search.value = "spinecleaver"
    app.rows.value = app.rows.options[0][1]
    assert app.count.value == 4 and app.count.step == 4
    app.add.click()
    assert added == [("Goblin Spinecleaver", 4)]
    app.search.value = "werewolf"
    app.rows.value = app.rows.options[0][1]
    assert app.count.step == 1


def test_a_stat_block_name_is_escaped():
    hostile = SAMPLE.monsters[0].model_copy(update={"name": "<img src=x onerror=alert(1)>"})
    from workbench.render.bestiary import published_stat_block_html, row_label

    assert "<img" not in published_stat_block_html(hostile) and "&lt;img" in published_stat_block_html(hostile)
    assert row_label(hostile).startswith("<img")  # a Select option is text, not HTML
