"""Share codes (workbench.formats.share_code): every kind comes back equal, a monster fits a chat message, and a
code cut short, mistyped, of a newer version, of another kind or built to hurt is refused by name."""

from __future__ import annotations

import base64
import json
import statistics
import tracemalloc
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import monsters

import workbench as wb
from workbench.encounter.encounter import creature_from_monster
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.formats.reader import import_monster
from workbench.formats.share_code import DICTIONARY, MAX_UNPACKED, find_code, read_code, share_code
from workbench.monster.library import load_library
from workbench.rules.limits import MAX_COUNT

DATA = Path(__file__).parent / "data"
DISCORD_MESSAGE = 2000  # the characters one Discord message holds
CHARACTERISTICS = ("might", "agility", "reason", "intuition", "presence")
ORGANIZATIONS = ("minion", "horde", "platoon", "elite", "leader", "solo")
ROLES = ("ambusher", "artillery", "brute", "controller", "defender", "harrier", "hexer", "mount", "support")


def stat_block_files() -> list[Path]:
    """Every stat block file the project holds in the published shapes: the sample bestiary and the test
    files written in the real collections' shapes."""
    files = sorted(p for p in SAMPLE_DIR.rglob("*.json") if "Statblocks" in p.parts)
    files += sorted(p for p in (DATA / "real_shapes").iterdir() if p.suffix in (".json", ".ds-monster"))
    return files


def readable(path: Path) -> wb.Monster | None:
    try:
        return import_monster(path)
    except wb.WorkbenchError:  # a file the importer refuses (a level 0 noncombatant) is no monster to share
        return None


PUBLISHED = [(path, monster) for path in stat_block_files() if (monster := readable(path)) is not None]


def forged(letter: str, raw: bytes, version: str = "1") -> str:
    """A code with a valid checksum around any bytes, packed as version 1 packs: what a hostile sender makes."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, DICTIONARY)
    packed = packer.compress(raw) + packer.flush()
    body = f"DSW{version}{letter}." + base64.urlsafe_b64encode(packed).decode().rstrip("=")
    return f"{body}.{zlib.crc32(body.encode()):08x}"


def refusal(text: object, expect: str | None = None) -> str:
    with pytest.raises(wb.InvalidInput) as caught:
        read_code(text, expect)  # type: ignore[arg-type]
    assert caught.value.field == "code" and "\n" not in str(caught.value)
    return str(caught.value.reason)


def encounter() -> wb.Encounter:
    party = wb.make_party(heroes=5, level=3)
    boss = wb.build_monster(3, "leader").model_copy(update={"name": "Goblin boss"})
    found = wb.Encounter(name="Bridge", party=party, aim="hard").adding(creature_from_monster(boss))
    found = found.adding("8 x level 3 minion harrier: goblin runners").adding("2 x level 3 platoon brute")
    return found.model_copy(update={"groups": wb.suggest_groups(found),
                                    "objectives": (wb.choose_objective("hold_them_off"),)})


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("path", [path for path, _ in PUBLISHED], ids=lambda p: p.name)
def test_every_published_shape_comes_back_equal_and_fits_a_chat_message(path):
    monster = dict(PUBLISHED)[path]
    code = share_code(monster)
    assert wb.open_code(code) == monster
    assert len(code) <= DISCORD_MESSAGE


def test_the_sizes_over_the_published_shapes():
    """Every published shape fits one message, and half the sample bestiary fits in half of one."""
    sizes = {path.name: len(share_code(monster)) for path, monster in PUBLISHED}
    sample = [size for path, monster in PUBLISHED if SAMPLE_DIR in path.parents
              for size in [len(share_code(monster))]]
    assert len(sample) >= 40 and max(sizes.values()) <= DISCORD_MESSAGE
    assert statistics.median(sample) < DISCORD_MESSAGE / 2


def test_version_1_library_files_come_back_as_the_library_loads_them():
    entries = load_library(DATA / "library-v1").entries
    assert len(entries) == 3
    for entry in entries:
        shared = read_code(share_code(entry.monster))
        assert shared.value == entry.monster  # its saved display choices written into the monster


@settings(max_examples=40, deadline=None)
@given(level=st.integers(1, 10), organization=st.sampled_from(ORGANIZATIONS), role=st.sampled_from(ROLES),
       characteristic=st.sampled_from(CHARACTERISTICS), strike=st.booleans())
def test_formula_monsters_across_the_grid_come_back_equal(level, organization, role, characteristic, strike):
    monster = wb.build_monster(level, organization, None if organization in ("leader", "solo") else role,
                               characteristic=characteristic, strike=strike)
    shared = read_code(share_code(monster), expect="monster")
    assert (shared.kind, shared.value) == ("monster", monster)
    assert shared.value.characteristics[characteristic] == monster.highest_characteristic


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(monster=monsters())
def test_whole_monsters_come_back_equal(monster):
    assert wb.open_code(share_code(monster)) == monster


specs = st.builds(
    lambda count, level, organization, role: f"{count} x level {level} {organization} {role}",
    st.integers(1, 8), st.integers(1, 10), st.sampled_from(("minion", "horde", "platoon", "elite")),
    st.sampled_from(ROLES))


@st.composite
def encounters(draw: st.DrawFn) -> wb.Encounter:
    party = wb.make_party(heroes=draw(st.integers(1, 7)), level=draw(st.integers(1, 10)),
                          victories=draw(st.integers(0, 12)))
    found = wb.Encounter(name=draw(st.text(max_size=20)), party=party)
    for spec in draw(st.lists(specs, min_size=1, max_size=4)):
        found = found.adding(spec)
    objectives = draw(st.lists(st.sampled_from(("diminish_numbers", "hold_them_off", "escort")), max_size=2,
                               unique=True))
    groups = wb.suggest_groups(found) if draw(st.booleans()) else ()
    return found.model_copy(update={"objectives": tuple(wb.choose_objective(k) for k in objectives),
                                    "groups": groups})


@settings(max_examples=25, deadline=None)
@given(found=encounters())
def test_encounters_come_back_equal(found):
    assert wb.open_code(share_code(found)) == found


@settings(max_examples=10, deadline=None)
@given(day=st.lists(encounters(), min_size=1, max_size=3), respite=st.booleans())
def test_adventures_come_back_equal(day, respite):
    adventure = wb.Adventure(name="The keep", party=day[0].party, encounters=tuple(day),
                             respites=(1,) if respite else ())
    assert wb.open_code(share_code(adventure)) == adventure


def test_a_typical_encounter_and_a_three_encounter_day_are_short():
    one = encounter()
    day = wb.Adventure(name="The keep", party=one.party, encounters=(one, one.model_copy(update={"name": "Hall"}),
                                                                     one.model_copy(update={"name": "Crypt"})))
    # each creature carries its whole monster: still a fraction of one chat message
    assert len(share_code(one)) < 600 and len(share_code(day)) < 800


def test_a_code_made_by_version_1_opens_for_good():
    """Codes are pasted months later: one made when version 1 was written opens to the same monster and
    encounter (the dictionary, the packing and the file formats of version 1 never change)."""
    monster_code = ("DSW1M.o6ymhlockJkH6nTBSwWCRQW0hjcmvokEr80NKaq50atjA6Tq2Ay9OjYlrjo2wl8dGyKqYxMC1bEpXJclQpMR1"
                    "vrYAGEBXKlRbW0tAA.646cf916")
    shared = read_code(monster_code)
    expected = wb.build_monster(3, "platoon", "brute", characteristic="agility", strike=False).model_copy(
        update={"name": "Pinned Goblin", "keywords": ("Goblin", "Humanoid")})
    assert shared.value == expected  # its display choices, saved beside it then, written into the monster
    encounter_code = ("DSW1E.o2JLMSAzD9T1SirKTAEnIHzNRiOkRh9udiyuxh_EDoV0YH8LmGrhLQYjkptcxpBmlAVSrWwKbHLV1gIA."
                      "675a89ad")
    party = wb.make_party(heroes=4, level=2)
    assert wb.open_code(encounter_code) == wb.Encounter(name="Pinned bridge", party=party).adding(
        "3 x level 2 platoon brute: bridge guards")


# ---------------------------------------------------------------- pasted with what a chat adds


def test_spaces_line_breaks_words_and_the_link_around_a_code_are_fine():
    code = share_code(encounter())
    broken = "\n".join(code[i:i + 37] for i in range(0, len(code), 37))
    for pasted in (f"  {code}\n", broken, f"here it is: {code} have fun",
                   f"http://127.0.0.1:8866/voila/render/encounter.ipynb?token=ab12#code={code}",
                   f"<{code}>", f"\u200b{code[:50]}\u200b{code[50:]}", f"DSW docs say: {code}"):
        assert find_code(pasted) == code
        assert wb.open_code(pasted) == encounter()


# ---------------------------------------------------------------- hostile codes


def test_every_code_cut_short_is_refused_as_cut_short():
    code = share_code(encounter())
    for end in range(4, len(code)):
        assert "cut short" in refusal(code[:end]), end


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_changed_character_is_refused_by_the_checksum(data):
    code = share_code(encounter())
    at = data.draw(st.integers(6, len(code) - 10), label="at")  # a character of the payload
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    other = data.draw(st.sampled_from(alphabet.replace(code[at], "")), label="other")
    assert "checksum does not match" in refusal(code[:at] + other + code[at + 1:])


def test_a_changed_kind_letter_is_caught_by_the_checksum_not_opened_as_another_kind():
    code = share_code(encounter())
    assert "checksum does not match" in refusal("DSW1A" + code[5:])


def test_a_newer_version_is_named():
    code = forged("E", b"{}", version="9")
    assert refusal(code) .startswith("a code of version 9 is newer than this workbench reads")


def test_a_code_of_another_kind_names_the_tool_that_opens_it():
    monster_code = share_code(wb.build_monster(2, "elite", "brute"))
    assert refusal(monster_code, expect="encounter").startswith(
        "this is a monster code; the encounter tool opens encounter codes")
    assert "the adventure tool opens adventure codes" in refusal(share_code(encounter()), expect="adventure")
    assert "monster builder opens monster codes" in refusal(
        share_code(wb.Adventure(party=encounter().party, encounters=(encounter(),))), expect="monster")


def test_text_without_a_code_and_what_is_no_text_are_refused():
    assert "no code in it" in refusal("hello there")
    assert "empty" in refusal("  \n ")
    assert refusal(None) == "a code is text"
    assert "is no kind of code" in refusal("DSW1X.abcd.12345678")


def test_a_compression_bomb_stops_at_the_cap_without_unpacking_it():
    """64 MiB of spaces packed into a code of a few tens of thousands of characters: refused, and the refusal
    costs no more memory than the cap (the unpacking stops there; it is not unpacked whole, then measured)."""
    code = forged("E", b" " * (64 << 20))
    assert len(code) < 100_000
    tracemalloc.start()
    try:
        reason = refusal(code)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert reason.startswith(f"it unpacks to more than {MAX_UNPACKED:,} bytes")
    assert peak < 4 * MAX_UNPACKED


def test_deep_nesting_long_numbers_and_broken_content_are_refused_within_the_caps():
    assert "nested deeper than 64 levels" in refusal(forged("E", b"[" * 50_000 + b"]" * 50_000))
    assert "a number longer than 40 characters" in refusal(forged("E", b'{"n": ' + b"9" * 5000 + b"}"))
    assert "not valid JSON" in refusal(forged("E", b"{nope"))
    assert "not UTF-8" in refusal(forged("E", b"\xff\xfe{}"))
    assert "no encounter file" in refusal(forged("E", b'{"format": "drawsteel-workbench/adventure"}'))
    assert "does not unpack" in refusal(forged_raw("E", b"\x00\x01garbage"))


def forged_raw(letter: str, packed: bytes) -> str:
    body = f"DSW1{letter}." + base64.urlsafe_b64encode(packed).decode().rstrip("=")
    return f"{body}.{zlib.crc32(body.encode()):08x}"


def test_content_a_file_would_be_refused_for_is_refused_the_same():
    data = {"format": "drawsteel-workbench/encounter", "version": 1, "encounter": encounter().model_dump(mode="json")}
    data["encounter"]["creatures"][1]["count"] = MAX_COUNT + 1
    assert "creatures.1.count" in refusal(forged("E", json.dumps(data).encode()))
    data = {"format": "drawsteel-workbench/encounter", "version": 1, "encounter": encounter().model_dump(mode="json")}
    data["encounter"]["creatures"][2]["ev"] = 999
    assert "the formulas give" in refusal(forged("E", json.dumps(data).encode()))
    data["version"] = 7
    assert "version 7" in refusal(forged("E", json.dumps(data).encode()))
    record = json.loads(share_code_record(wb.build_monster(2, "platoon", "brute")))
    record["level"] = True
    assert "level: not a whole number" in refusal(forged("M", json.dumps(record).encode()))
    record["level"], record["organization"] = 2, "dragon"
    assert "its monster" in refusal(forged("M", json.dumps(record).encode()))


def share_code_record(monster: wb.Monster) -> str:
    """The JSON a monster's code packs, unpacked from the code (what a hostile sender would start from)."""
    payload = share_code(monster).split(".")[1]
    unpacker = zlib.decompressobj(-15, DICTIONARY)
    return unpacker.decompress(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))).decode()


def test_an_absurdly_long_paste_is_refused_before_anything_is_decoded():
    assert "characters" in refusal("DSW1E." + "A" * 4_000_000)
