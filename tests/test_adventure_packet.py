"""The adventure's printable packet (workbench.render.adventure): the day, a sheet per encounter with its Malice
card, every stat block as a card; every text a Director typed escaped."""

from __future__ import annotations

import html
import re
import subprocess

import pytest

import workbench as wb
from workbench.encounter.adventure import Adventure, plan
from workbench.encounter.encounter import Encounter
from workbench.encounter.objective import choose_objective
from workbench.encounter.party import make_party
from workbench.errors import InvalidInput
from workbench.export.adventure import export_adventure
from workbench.model import Trait
from workbench.render.adventure import adventure_html
from workbench.render.escape import escape

HOSTILE = '<img src=x onerror="alert(1)">'


def day() -> Adventure:
    party = make_party(heroes=5, level=3)
    gate = Encounter(name=f"Gate {HOSTILE}", party=party).adding("7 x level 3 platoon brute: Gate Guard")
    gate = gate.model_copy(update={"objectives": (choose_objective("diminish_numbers"),)})
    hall = Encounter(name="Hall", party=party).adding("level 4 leader: Warden", "8 x level 3 minion harrier")
    return Adventure(name=f"The keep {HOSTILE}", party=party, encounters=(gate, hall, gate), respites=(2,))


def text_of(page: str) -> str:
    page = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_user_text_is_escaped_everywhere():
    page = adventure_html(plan(day()))
    assert HOSTILE not in page and "<img" not in page
    assert escape(HOSTILE) in page
    assert f"The keep {HOSTILE}" in text_of(page)  # and it prints as the text typed


def test_the_day_and_each_sheet_hold_the_numbers():
    found = plan(day())
    page = adventure_html(found)
    text = text_of(page)
    # arrivals 0, 2 (the hard Gate is worth 2), then 0 after the respite
    assert re.findall(r'class="wb-arrival" data-value="([^"]+)"', page) == ["0", "2", "0"]
    assert "arriving with 2 Victories : encounter strength 60" in text
    assert page.count('class="wb-sheet"') == 3
    # each sheet's Malice card: round 1 gains the Victories rounded down + 5 heroes + 1, round n gains 5 + n
    for row in found.encounters:
        start = int(row.arrival_victories)
        gains = [start + 5 + 1] + [5 + n for n in range(2, 6)]
        totals = [sum(gains[: n + 1]) for n in range(5)]
        rows = " ".join(f"{n + 1} {g} {t}" for n, (g, t) in enumerate(zip(gains, totals, strict=True)))
        assert rows in text
    assert "Brutal Effectiveness (3 Malice)" in text
    assert "Diminish Numbers" in text and "Success condition." in text and "Failure condition." in text


def test_stat_blocks_are_cards_with_the_monster_given():
    warden = wb.build_monster(level=4, organization="leader").model_copy(update={
        "name": "Warden",
        "malice_features": (Trait(name="Lock the Gates", text="Every door slams shut.", cost=4),),
    })
    page = adventure_html(plan(day()), monsters=[warden])
    # three kinds of stat block across the day: the guard, the warden, the harrier minions
    assert page.count('class="wb-card"') == 3
    text = text_of(page)
    assert "Lock the Gates (Warden) (4 Malice): Every door slams shut." in text


def _pdf_text(pdf: bytes, tmp_path) -> str:
    path = tmp_path / "packet.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_the_pdf_holds_every_number_of_the_sheets_and_prints_user_text_as_text(tmp_path):
    adventure = day()
    pdf = export_adventure(adventure, "pdf")
    assert isinstance(pdf, bytes) and pdf.startswith(b"%PDF")
    text = " ".join(_pdf_text(pdf, tmp_path).split())
    assert f"The keep {HOSTILE}" in text  # the markup typed prints as text
    for row in plan(adventure).encounters:
        assert f"encounter strength {row.encounter_strength}" in text
        start = int(row.arrival_victories)
        assert f"At the start: {start}" in text
        gains = [start + 5 + 1] + [5 + n for n in range(2, 6)]
        totals = [sum(gains[: n + 1]) for n in range(5)]
        assert " ".join(f"{n + 1} {g} {t}" for n, (g, t) in enumerate(zip(gains, totals, strict=True))) in text
    assert "(hard: EV 61 to 80)" in text and "Brutal Effectiveness (3 Malice)" in text


@pytest.mark.parametrize(
    "args, kwargs, field",
    [
        (("day", "html"), {}, "adventure"),  # no Adventure
        ((None, "docx"), {}, "fmt"),  # html or pdf
        ((None, "html"), {"page": "a3"}, "page"),  # a4 or letter
    ],
)
def test_export_refusals_name_the_field(args, kwargs, field):
    first, fmt = args
    with pytest.raises(InvalidInput) as caught:
        export_adventure(day() if first is None else first, fmt, **kwargs)
    assert caught.value.field == field


def test_initiative_groups_are_the_directors_or_a_marked_suggestion():
    party = make_party(heroes=5, level=3)
    bare = Encounter(name="Bare", party=party).adding("4 x level 3 platoon brute", "level 3 elite controller")
    grouped = bare.model_copy(update={"groups": wb.suggest_groups(bare)[::-1]})
    page = adventure_html(plan(Adventure(party=party, encounters=(bare, grouped))))
    sheets = page.split('class="wb-sheet"')[1:]
    assert "Initiative groups (suggested)" in sheets[0]
    assert "Initiative groups (suggested)" not in sheets[1] and "Initiative groups" in sheets[1]
    assert sheets[0].count('class="wb-group-ev"') == len(wb.suggest_groups(bare))


# ---------------------------------------------------------------- printing has limits, as a monster card's


class _NoBrowser:
    """Stands in for the printing browser: a test fails if it is started; `pdf` is what it prints."""

    def __init__(self, pdf: bytes | None = None) -> None:
        self.pdf = pdf

    def __call__(self) -> _NoBrowser:
        if self.pdf is None:
            raise AssertionError("the browser was started")
        return self

    def run(self, job) -> bytes:
        assert self.pdf is not None
        return self.pdf


def _hostile_day(where: str) -> Adventure:
    party = make_party(heroes=4, level=2)
    word = "w" * 40_000  # one word longer than an A4 page holds at the smallest print (about 33,700 characters)
    name = word if where == "encounter name" else "Yard"
    yard = Encounter(name=name, party=party).adding("4 x level 2 platoon brute: Yard Dog")
    return Adventure(name="Long", party=party, encounters=(yard,))


@pytest.mark.parametrize("where", ["encounter name", "monster trait"])
def test_the_packet_refuses_text_a_page_cannot_hold_before_the_browser_starts(monkeypatch, where):
    from workbench.export import printout

    monkeypatch.setattr(printout, "_browser", _NoBrowser())
    dog = wb.build_monster(level=2, organization="platoon", role="brute").model_copy(update={"name": "Yard Dog"})
    if where == "monster trait":
        dog = dog.model_copy(update={"traits": (Trait(name="Howl", text="a" * 40_000),)})
    with pytest.raises(InvalidInput) as caught:
        export_adventure(_hostile_day(where), "pdf", [dog])
    refusal = caught.value
    assert refusal.field == "adventure" and "characters of text at most" in str(refusal)
    assert "export it as html" in str(refusal) and "markdown" not in str(refusal)  # the packet has no markdown
    assert refusal.value == ("the day, line 2" if where == "encounter name" else "stat block card 1")
    assert export_adventure(_hostile_day(where), "html", [dog])  # the page itself is still there to read


def test_a_day_of_the_most_encounters_prints(monkeypatch):
    from workbench.encounter.adventure import MAX_ENCOUNTERS
    from workbench.export import printout

    monkeypatch.setattr(printout, "_browser", _NoBrowser(b"%PDF-stand-in"))
    one = day()
    many = one.model_copy(update={"encounters": (one.encounters * MAX_ENCOUNTERS)[:MAX_ENCOUNTERS], "respites": ()})
    assert export_adventure(many, "pdf") == b"%PDF-stand-in"  # a long day runs over pages; no line is too long
