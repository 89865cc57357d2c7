"""The adventure page in a browser: a three-encounter day built by mouse from encounters saved in the workspace,
the first encounter's objective changed and the second's band seen to change, a respite added, the day saved
and its packet downloaded and read with pdftotext.

The three encounters are saved into the test server's workspace by the library (as the encounter page saves
them), under names of this run only, and taken away after. The expected numbers are worked out here from the
rules' words, never from the planner: a hero's encounter strength "starts at a baseline of 4, to which you add 2
for each level"; "for every 2 Victories the heroes have earned on average" the party counts one hero more;
Step 4's budgets give the band; a hard encounter is "typically worth 2 Victories", and Hold Them Off gives
"1 Victory if the success condition is met" below extreme; Malice at the start is "equal to the average number
of Victories per hero". Only the creatures' EV comes from the library (the EV formula of their stat blocks).
"""

from __future__ import annotations

import secrets
import subprocess

import pytest
from playwright.sync_api import expect
from rules_reference import budget_band
from test_browser_pages import LAYOUT_PROBLEMS, visible_text_problems

import workbench as wb
from workbench.encounter.files import save_encounter

NOTEBOOK = "adventure.ipynb"
APP = ".wb-adventure"
READY = f"#rendered_cells .wb-page {APP} .wb-adventure-chart .main-svg"
TAG = secrets.token_hex(3)  # the browser tests share one workspace: this run's names only
NAMES = {"bridge": f"Bridge {TAG}", "mill": f"Mill {TAG}", "camp": f"Camp {TAG}"}
DAY = f"Browser day {TAG}"
HEROES, LEVEL = 4, 1
HERO = 4 + 2 * LEVEL  # one hero's encounter strength
PLATOON = wb.build_monster(LEVEL, "platoon", "brute")
ELITE = wb.build_monster(LEVEL, "elite", "brute")
CREATURES = {"bridge": (PLATOON, 6), "mill": (PLATOON, 4), "camp": (ELITE, 3)}
EV = {key: monster.ev * count for key, (monster, count) in CREATURES.items()}


def strength(victories: int) -> int:
    return HERO * (HEROES + victories // 2)


def band(ev: int, victories: int) -> str:
    return budget_band(ev, strength(victories), HERO)


def worth(difficulty: str, objective: str = "") -> int:
    """Victories on success: Diminish Numbers (no objective) by the difficulty; Hold Them Off 1 below extreme."""
    if difficulty == "trivial":
        return 0
    if objective == "hold_them_off":
        return 2 if difficulty == "extreme" else 1
    return 2 if difficulty in ("hard", "extreme") else 1


def expected_day(order: list[str], objectives: dict[str, str], respite_after: int | None = None) -> list[tuple]:
    """(arrival Victories, band) for each encounter in `order`."""
    held, out = 0, []
    for position, key in enumerate(order):
        if respite_after is not None and position == respite_after + 1:
            held = 0
        found = band(EV[key], held)
        out.append((held, found))
        held += worth(found, objectives.get(key, ""))
    return out


@pytest.fixture(scope="module")
def saved(workbench_home):
    """The three encounters saved in the test server's workspace; they and the saved day are taken away after."""
    folder = workbench_home / "encounters"
    party = wb.make_party(heroes=HEROES, level=LEVEL)
    files = []
    for key, (monster, count) in CREATURES.items():
        encounter = wb.Encounter(name=NAMES[key], party=party).adding(
            monster.model_copy(update={"name": f"{key.capitalize()} guard"}), count=count)
        files.append(save_encounter(encounter, folder / f"{NAMES[key]}.json"))
    day = workbench_home / "adventures" / f"{DAY}.json"
    yield day
    for path in (*files, day):
        path.unlink(missing_ok=True)


@pytest.fixture(scope="module")
def app(open_app, saved):
    page = open_app(NOTEBOOK, READY)
    yield page
    page.close()


def row(number: int) -> str:
    return f"{APP} .wb-adventure-row-{number}"


def shows(app, number: int, arrival: int, found: str) -> None:
    """Row `number` says the heroes arrive with `arrival` Victories and the EV falls in band `found`."""
    app.page.locator(f'{row(number)} .wb-row-arrival[data-value="{arrival}"]').wait_for()
    app.page.locator(f'{row(number)} .wb-row-band[data-value="{found}"]').wait_for()
    assert app.page.locator(f"{row(number)} .wb-row-strength").inner_text() == str(strength(arrival))
    assert app.page.locator(f"{row(number)} .wb-row-malice").inner_text() == str(arrival)


def test_a_day_by_mouse_an_objective_moves_the_next_band_and_the_packet_prints(app, saved, tmp_path):
    page = app.page
    app.button("Refresh lists", APP).click()  # the page may have opened before the encounters were saved
    for key in ("mill", "bridge", "camp"):
        expect(app.dropdown("Saved encounters", APP).locator(f'option:text-is("{NAMES[key]}")')).to_have_count(1)
        app.pick("Saved encounters", NAMES[key], APP)
        app.button("Add encounter", APP).click()
        page.locator(f"{APP} .wb-adventure-row:has-text('{NAMES[key]}')").wait_for()
    # the bridge is met first: up one place
    app.button("▲", row(2)).click()
    page.locator(f"{row(1)}:has-text('{NAMES['bridge']}')").wait_for()
    order = ["bridge", "mill", "camp"]
    assert (app.slider_value("Heroes", APP), app.slider_value("Level", APP)) == (HEROES, LEVEL)

    day = expected_day(order, {})
    assert [found for _, found in day] == ["hard", "easy", "standard"]  # the scenario the test is about
    for number, (arrival, found) in enumerate(day, start=1):
        shows(app, number, arrival, found)

    # Hold Them Off makes the hard bridge worth 1 Victory: the mill is met with 1, and its EV is standard
    app.pick("Objective", "Hold Them Off", row(1))
    day = expected_day(order, {"bridge": "hold_them_off"})
    assert day[1] == (1, "standard")
    for number, (arrival, found) in enumerate(day, start=1):
        shows(app, number, arrival, found)

    # a respite after the mill: the camp is met fresh
    app.button("Add a respite after", row(2)).click()
    day = expected_day(order, {"bridge": "hold_them_off"}, respite_after=1)
    shows(app, 3, *day[2])
    app.wait_for_plot(".wb-adventure-chart", "(traces, want) => traces.some(t => t.name === 'Respite') && "
                      "JSON.stringify(traces.find(t => t.name === 'Victories on arrival').y) === JSON.stringify(want)",
                      [arrival for arrival, _ in day])
    app.screenshot("day", APP)
    assert visible_text_problems(page.locator("#rendered_cells").inner_text()) == []
    assert app.js(LAYOUT_PROBLEMS) == []

    # saved in the workspace's adventures folder, its full path said
    app.fill("Adventure name", DAY, APP)
    app.button("Save", APP).click()
    note = page.locator(f"{APP} .wb-adventure-saved:has-text('Saved to')")
    note.wait_for()
    assert f"~/drawsteel-workbench/adventures/{DAY}.json" in note.inner_text()
    kept = wb.Adventure.load(saved)
    assert [e.name for e in kept.encounters] == [NAMES[key] for key in order] and kept.respites == (2,)
    assert [o.key for o in kept.encounters[0].objectives] == ["hold_them_off"]

    # the packet: one PDF with every encounter's numbers
    app.button("Print the packet", APP).click()
    link = page.locator(f'{APP} a.wb-download[data-format="pdf"]')
    expect(link).to_be_visible(timeout=120_000)
    with page.expect_download() as event:
        link.click()
    assert event.value.suggested_filename == f"{DAY} packet.pdf"
    pdf = tmp_path / "packet.pdf"
    event.value.save_as(pdf)
    text = " ".join(subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    assert DAY in text
    for key, (arrival, found) in zip(order, day, strict=True):
        victories = f"{arrival} {'Victory' if arrival == 1 else 'Victories'}"
        assert f"{NAMES[key]}" in text
        assert f"arriving with {victories}: encounter strength {strength(arrival)}" in text, key
        assert f"EV {EV[key]} is {found}" in text, key  # no objective here shifts a difficulty from its band
        assert f"At the start: {arrival}" in text, key
    assert "Hold Them Off" in text
