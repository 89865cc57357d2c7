"""One monster, whole, from the encounter to the table: for a monster of each kind (a formula monster, a library
monster with the Director's edit, a published Steel Compendium block, a block pasted as text), the walk
encounter -> saved and reopened -> fight -> adventure packet -> every export format keeps every number, name
and ability of the monster's own block; and an encounter file saved before creatures carried their monster
still opens with the numbers it always had."""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

import pytest

import workbench as wb
from workbench.encounter.adventure import adventure_of, load_adventure, save_adventure
from workbench.encounter.encounter import creature_stamina, encounter_objective_numbers
from workbench.encounter.files import load_encounter, save_encounter
from workbench.encounter.objective import choose_objective
from workbench.export.adventure import export_adventure
from workbench.export.exporter import FORMATS, SUFFIXES, export_monster, export_monsters
from workbench.export.printout import print_html
from workbench.fight.setup import capitalized
from workbench.model import Monster
from workbench.monster.library import load_monster, save_monster

DATA = Path(__file__).parent / "data" / "real_shapes"
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "bestiary-sample"
MINUS = "\N{MINUS SIGN}"


def formula() -> Monster:
    return wb.Encounter(party=wb.make_party(heroes=4, level=5)).adding("level 4 platoon brute: Bog Brute").creatures[0].monster


def library(folder: Path) -> Monster:
    built = wb.build_monster(level=5, organization="elite", role="harrier").model_copy(update={"name": "Ridge Stalker"})
    save_monster(built, "Ridge Stalker", folder)
    loaded = load_monster("Ridge Stalker", folder)
    return loaded.model_copy(update={"stamina": loaded.stamina + 7, "keywords": ("Beast", "Hunter")})


def published() -> Monster:
    return wb.read_stat_block(DATA / "sc-leader-with-villain-actions.json")


def pasted() -> Monster:
    return wb.parse_stat_block_text(wb.stat_block_markdown(wb.read_stat_block(SAMPLE / "Werewolf" / "Statblocks" / "Werewolf.json")))


def villain_actions(m: Monster) -> list[str]:
    """The villain actions by slot: the ones written as text, else the abilities numbered for them."""
    numbered = {a.villain_action: a.name for a in m.abilities if a.villain_action is not None}
    written = [v.name for v in m.villain_actions]
    return [written[n - 1] if n <= len(written) and written[n - 1] else numbered.get(n, "") for n in (1, 2, 3)
            if n <= len(written) or n in numbered]


def block(m: Monster) -> dict[str, object]:
    """Every number, name and ability of a monster's block, as the Director reads it."""
    def tiers(a):
        roll = a.power_roll
        return None if roll is None else (roll.bonus, roll.damage, [t.effect for t in (roll.tier1, roll.tier2, roll.tier3)])

    return {
        "name": m.name, "level": m.level, "organization": m.organization, "role": m.role,
        "stamina": m.stamina, "ev": m.ev, "free_strike": m.free_strike,
        "characteristics": m.characteristics.model_dump(),
        "abilities": [(a.name, tiers(a)) for a in m.abilities],
        "villain_actions": villain_actions(m),
        "traits": [t.name for t in m.traits],
        "size": str(m.size_class) if m.size_class else m.size,
        "speed": str(m.movement) if m.movement else m.speed,
        "stability": m.stability_value if m.stability_value is not None else m.stability,
        "keywords": list(m.keywords),
        "immunities": [str(i) for i in m.immunities], "weaknesses": [str(w) for w in m.weaknesses],
    }


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"{MINUS}{-value}"


def printed(m: Monster) -> list[str]:
    """What a printed block must show of the monster: its name, numbers, abilities and header parts."""
    b = block(m)
    parts = [m.name, f"EV {m.ev}", str(m.stamina), str(m.free_strike), *b["keywords"], *b["immunities"],
             *b["weaknesses"], *b["villain_actions"], *b["traits"]]
    parts += [signed(v) for v in m.characteristics.model_dump().values() if v is not None]
    for a in m.abilities:
        parts.append(a.name)
        roll = a.power_roll
        if roll is not None:
            parts.append(f"Power Roll + {roll.bonus}" if roll.bonus >= 0 else f"Power Roll {MINUS} {-roll.bonus}")
            parts += [str(t) for t in (roll.tier1, roll.tier2, roll.tier3)]
    parts += [str(b[k]) for k in ("size", "speed", "stability") if b[k] not in ("", None)]
    return [p for p in parts if p]


def text_of(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def missing(text: str, m: Monster) -> list[str]:
    """The parts of `printed(m)` that `text` does not show (spacing and the minus sign aside)."""
    def flat(words: str) -> str:
        return " ".join(words.replace("-", MINUS).split())

    shown = flat(text)
    return [p for p in printed(m) if flat(p) not in shown]


@pytest.fixture(scope="module")
def monsters(tmp_path_factory) -> list[Monster]:
    return [formula(), library(tmp_path_factory.mktemp("library")), published(), pasted()]


@pytest.fixture(scope="module")
def walked(monsters, tmp_path_factory):
    """The four monsters in one encounter, saved and reopened, then in an adventure saved and reopened."""
    folder = tmp_path_factory.mktemp("walk")
    party = wb.make_party(heroes=4, level=5)
    encounter = wb.Encounter(party=party)
    for m in monsters:
        encounter = encounter.adding(wb.creature_from_monster(m, count=1))
    reopened = load_encounter(save_encounter(encounter, folder / "walk.json"))
    day = load_adventure(save_adventure(adventure_of([reopened], name="The Walk"), folder / "day.json"))
    return encounter, reopened, day


def test_the_monsters_are_of_each_kind_and_depart_from_the_formulas(monsters):
    made, edited, book, paste = monsters
    assert [a.cost for a in made.abilities] == ["signature"] and made.stamina == wb.build_monster(level=4, organization="platoon", role="brute").stamina
    assert edited.stamina == wb.build_monster(level=5, organization="elite", role="harrier").stamina + 7
    assert book.stamina == 155 and book.stamina != wb.build_monster(level=6, organization="leader").stamina
    assert paste.name == "Werewolf" and paste.organization == "solo" and len(paste.abilities) > 3


def test_the_encounter_and_its_reopened_file_carry_each_monster_whole(monsters, walked):
    encounter, reopened, day = walked
    assert reopened == encounter and day.encounters[0] == encounter
    for m, before, after in zip(monsters, encounter.creatures, reopened.creatures, strict=True):
        assert block(before.monster) == block(m) == block(after.monster)
        assert (after.name, after.level, after.organization, after.role, after.ev, after.stamina) == (
            m.name, m.level, m.organization, m.role, m.ev, m.stamina)
        assert creature_stamina(after) == m.stamina


def test_the_fight_fights_each_monster_whole(monsters, walked):
    _, reopened, _ = walked
    fight = wb.Fight(reopened)
    for m in monsters:
        (unit,) = [u for u in fight.units if u.entry is not None and u.name.startswith(capitalized(m.name))]
        assert block(fight.monster(unit.name)) == block(m)
        assert unit.stamina_max == m.stamina
        if unit.villain:
            assert list(fight.villain_action_names(unit.name)) == (villain_actions(m) or ["", "", ""])
    assert [s for s, _ in fight.stat_blocks] == [monster for monster in fight._ctx.setup.monsters]
    assert fight.villain_action_names("Barrow Regent") == ("Wake the Guard", "Curse of the Tomb", "Sealed Forever")


def test_the_adventure_packet_prints_each_monster_whole(monsters, walked):
    _, _, day = walked
    page = export_adventure(day, "html")
    cards = re.findall(r'<div class="wb-card">(.*?)</div>(?=<div class="wb-card">|</section>)', page, re.S)
    assert len(cards) == len(monsters)
    for m, card in zip(monsters, cards, strict=True):
        text = text_of(card)
        assert missing(text, m) == []
        assert "not written yet" not in text or not villain_actions(m)


def _exported(m: Monster, fmt: str, folder: Path) -> Monster:
    path = folder / f"{m.name}{SUFFIXES[fmt]}"
    path.write_text(export_monster(m, fmt), encoding="utf-8")
    return wb.parse_stat_block_text(path.read_text(encoding="utf-8")) if fmt == "markdown" else wb.import_monster(path)


@pytest.mark.parametrize("fmt", ["steel-compendium", "forge-steel", "foundry", "markdown"])
def test_every_file_format_reads_back_as_the_same_block(monsters, walked, fmt, tmp_path):
    _, reopened, _ = walked
    for m, creature in zip(monsters, reopened.creatures, strict=True):
        assert block(_exported(creature.monster, fmt, tmp_path)) == block(m), (fmt, m.name)


def test_the_page_and_the_printed_formats_show_the_same_block(monsters, walked, tmp_path):
    _, reopened, _ = walked
    carried = [c.monster for c in reopened.creatures]
    assert set(FORMATS) == {"steel-compendium", "forge-steel", "foundry", "markdown", "html", "pdf", "png"}
    for m, own in zip(monsters, carried, strict=True):
        assert missing(text_of(export_monster(own, "html")), m) == []
        assert missing(text_of(print_html(own)), m) == []  # the document the PNG card is printed from
    pdf = tmp_path / "walk.pdf"
    pdf.write_bytes(export_monsters(carried, "pdf"))
    pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                           check=True).stdout.split("\f")
    for m in monsters:
        (page,) = [p for p in pages if m.name in p]
        assert missing(page, m) == []
    png = export_monster(carried[2], "png")
    assert isinstance(png, bytes) and png.startswith(b"\x89PNG\r\n\x1a\n")


def test_an_encounter_file_of_the_old_shape_opens_with_the_numbers_it_had(tmp_path):
    """Version 1: each creature its level, organization, role and saved numbers, no monster."""
    old = {
        "format": "drawsteel-workbench/encounter", "version": 1,
        "encounter": {
            "name": "Old Bridge", "party": {"members": [{"level": 3, "kind": "hero", "name": ""}] * 4, "victories": "0"},
            "creatures": [
                {"name": "bridge trolls", "level": 3, "organization": "platoon", "role": "brute", "count": 2,
                 "ev": 10, "star": False, "instant_solo": False, "stamina": 60, "own_ev": False, "attack": ""},
                {"name": "", "level": 2, "organization": "minion", "role": "harrier", "count": 8, "ev": 4,
                 "star": False},
                {"name": "Toll Keeper", "level": 3, "organization": "leader", "role": None, "count": 1, "ev": 60,
                 "star": True, "instant_solo": True, "stamina": 300, "own_ev": False, "attack": ""},
                {"name": "Bog Witch", "level": 3, "organization": "elite", "role": "controller", "count": 1,
                 "ev": 13, "star": False, "instant_solo": False, "stamina": 77, "own_ev": True, "attack": ""},
            ],
            "terrain": [], "groups": [], "objectives": [{"key": "diminish_numbers"}],
        },
    }
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    loaded = load_encounter(path)
    minion = wb.build_monster(level=2, organization="minion", role="harrier")
    assert [(c.name, c.count, c.ev, c.stamina, c.instant_solo, c.star) for c in loaded.creatures] == [
        ("bridge trolls", 2, 10, 60, False, False), ("", 8, 4, minion.stamina, False, False),
        ("Toll Keeper", 1, 60, 300, True, True), ("Bog Witch", 1, 13, 77, False, False)]
    assert [c.cost() for c in loaded.creatures] == [20, 8, 60, 13]
    assert loaded.total_ev == 101 and loaded.creatures[2].solo
    assert [creature_stamina(c) for c in loaded.creatures] == [60, minion.stamina, 300, 77]
    # each resolves to the formulas' stat block for its level, organization and role, with its saved numbers
    troll = wb.build_monster(level=3, organization="platoon", role="brute")
    assert loaded.creatures[0].monster == troll.model_copy(update={"name": "bridge trolls", "stamina": 60})
    assert loaded.creatures[2].monster.stamina == 300 and loaded.creatures[2].monster.traits
    assert encounter_objective_numbers(loaded.model_copy(update={"objectives": (choose_objective("diminish_numbers"),)}),
                                       "diminish_numbers")
    fight = wb.Fight(loaded)
    assert sorted((u.name, u.stamina_max) for u in fight.units if u.kind == "creature") == [
        ("Bog Witch", 77), ("Bridge trolls 1", 60), ("Bridge trolls 2", 60), ("Toll Keeper", 300)]
    # saved again, it is a version 2 file that opens the same
    again = save_encounter(loaded, tmp_path / "again.json")
    assert json.loads(again.read_text())["version"] == 2 and load_encounter(again) == loaded
    # the old checks still hold: a formula creature's EV edited by hand is refused unless marked its own
    old["encounter"]["creatures"][0]["ev"] = 11
    path.write_text(json.dumps(old), encoding="utf-8")
    with pytest.raises(wb.InvalidInput, match=r"creatures\.0\.ev: the file says 11, the formulas give 10"):
        load_encounter(path)
    assert load_encounter(path, trust_numbers=True).creatures[0].ev == 11
