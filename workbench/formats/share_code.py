"""Share codes: a monster, an encounter or an adventure as one line of text a Director pastes into a chat.

A code reads `DSW1M.<payload>.<checksum>`: "DSW" (Draw Steel workbench), the code's version (1), its kind
(`M` a monster, `E` an encounter, `A` an adventure), then the content and a checksum. The content is the JSON
the workbench's own file of that kind holds (the library's monster file, the encounter file, the adventure
file, each with its "format" and "version" marker), written compactly (no spaces, no field left at its
default), packed with raw deflate at its highest level against a preset dictionary of the files' own keys
and the stat blocks' common words (`DICTIONARY`: part of version 1, so it never changes), and written in
base64url without padding: letters, digits, "-" and "_", which survive a chat, an e-mail and a URL. The
checksum is the CRC32 of everything before it (prefix and payload), as 8 lowercase hexadecimal digits: a
code cut short or with a character changed is refused by name, never opened as something else.

A pasted text may hold more than the code: line breaks and spaces a chat put in, the words around it, the
whole link (`...#code=DSW1E...`); `find_code` takes the code out of it. A hostile code is treated as a
hostile file is: the text is capped before anything is decoded, the unpacking stops at `MAX_UNPACKED` bytes
while it unpacks (a compression bomb costs no memory), the JSON is parsed with the file readers' caps on
depth and numbers (`workbench.io.reading.parse_json`), and the content goes through the same checks as a
file of its kind (an encounter's creatures, an adventure's encounters, a monster's numbers). Every refusal
is one `InvalidInput` on the field "code", its reason saying what is wrong with the code.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import ValidationError

from workbench.encounter.adventure import FILE_FORMAT as ADVENTURE_FORMAT
from workbench.encounter.adventure import FILE_VERSION as ADVENTURE_VERSION
from workbench.encounter.adventure import Adventure, adventure_of_data
from workbench.encounter.encounter import Encounter
from workbench.encounter.files import FILE_FORMAT as ENCOUNTER_FORMAT
from workbench.encounter.files import FILE_VERSION as ENCOUNTER_VERSION
from workbench.encounter.files import encounter_of_data
from workbench.errors import InvalidInput
from workbench.io.problem import FileProblem
from workbench.io.reading import MAX_FILE_BYTES, parse_json
from workbench.model import Monster
from workbench.monster.library import entry_of_record, record_of
from workbench.rules.ruleset import Ruleset

__all__ = [
    "ACCEPTS",
    "DICTIONARY",
    "KINDS",
    "MAX_CODE_CHARS",
    "MAX_UNPACKED",
    "PREFIX",
    "VERSION",
    "Kind",
    "Shared",
    "Shareable",
    "find_code",
    "kind_of",
    "open_code",
    "read_code",
    "share_code",
    "tool_of",
]

Kind = Literal["monster", "encounter", "adventure"]
Shareable = Monster | Encounter | Adventure

PREFIX: Final = "DSW"
VERSION: Final = 1
KINDS: dict[Kind, str] = {"monster": "M", "encounter": "E", "adventure": "A"}
_KIND_OF_LETTER: dict[str, Kind] = {letter: kind for kind, letter in KINDS.items()}
# The tool of each kind, as a refusal names it ("the encounter tool opens encounter codes").
TOOLS: dict[Kind, str] = {"monster": "the monster builder", "encounter": "the encounter tool",
                          "adventure": "the adventure tool"}
ACCEPTS = "a share code of the workbench (DSW1M. a monster, DSW1E. an encounter, DSW1A. an adventure)"
MAX_UNPACKED = MAX_FILE_BYTES  # what a code unpacks to: as much as a file the workbench reads, no more
# base64 of the largest payload packed as badly as deflate can (stored blocks add 5 bytes in 65,535), with room
MAX_CODE_CHARS = (MAX_UNPACKED + MAX_UNPACKED // 1000 + 64) * 4 // 3 + 64
MAX_PASTED_CHARS = 2 * MAX_CODE_CHARS  # a pasted text, before the code is looked for in it
CHECKSUM_DIGITS = 8
_BITS = -15  # raw deflate: the checksum is the code's own, so zlib's header and Adler-32 would be 6 bytes wasted

# Version 1's preset dictionary: the keys of the three files, the words stat blocks repeat and the traits the
# rules give every solo (Monster Basics, "Instant Solo Creature"), the most frequent last (deflate reaches the end of its window most cheaply). A code packed against it opens only
# against the very same bytes: changing one character breaks every code ever made, so a new dictionary
# needs a new version.
DICTIONARY: Final = (
    b"Each enemy in the area. Each creature in the area. Each ally in the area. One creature or object. "
    b"Two creatures or objects. Three creatures. One enemy. One ally. The triggering creature. Self. Special. "
    b"Solo Turns The creature can take two turns each round. They can't take turns consecutively. End Effect "
    b"At the end of each of their turns, the creature can take 10 damage to end one effect on them that can be "
    b"ended by a saving throw. This damage can't be reduced in any way. The target is knocked prone. The target takes damage "
    b"before the triggering ability is resolved. Each target makes a test. until the end of their next turn "
    b"(EoT) (save ends) M < 1 A < 1 R < 1 I < 1 P < 1 bleeding dazed frightened grabbed prone restrained "
    b"slowed taunted weakened push 2 pull 3 slide 4 shift up to their speed free strike within distance "
    b"adjacent ally enemy creature object damage squares Solo Monster End Effect Solo Turns Malice Villain "
    b"Action acid cold corruption fire holy lightning poison psychic sonic climb fly swim burrow teleport "
    b"hover Humanoid Goblin Undead Beast Construct Abyssal Fey Elemental Dragon "
    b"minion horde platoon elite leader solo ambusher artillery brute controller defender harrier hexer "
    b"mount support diminish_numbers defeat_a_specific_foe get_the_thing destroy_the_thing save_another "
    b"escort hold_them_off assault_the_defenses stop_the_action complete_the_action trivial easy standard "
    b"hard extreme "
    b'{"format":"drawsteel-workbench/adventure","version":1,"adventure":{"name":"","respites":[1],"encounters":[]}}'
    b'{"format":"drawsteel-workbench/encounter","version":1,"encounter":{"name":"",'
    b'"party":{"members":[{"level":1,"kind":"retainer","name":""},{"level":1,"kind":"ally"},{"level":1},'
    b'{"level":1}],"victories":"1"},"creatures":[{"name":"","level":1,"organization":"minion","role":"harrier",'
    b'"count":8,"ev":3,"star":true,"instant_solo":true,"stamina":10,"own_ev":true,"attack":""},'
    b'{"name":"","level":1,"organization":"platoon","role":"brute","count":2,"ev":3,"stamina":10}],'
    b'"terrain":[{"name":"","ev":1,"level":1}],"groups":[{"members":[[0,1]]}],'
    b'"objectives":[{"key":"hold_them_off","conditions":{},"bonus":true}],"objective_mode":"","aim":"standard"}}'
    b'{"format":"drawsteel-workbench/homebrew-monster","version":2,"level":1,"organization":"leader",'
    b'"role":"brute","extra_stamina":true,"targets":2,"instant_solo":true,"characteristic":"agility",'
    b'"strike":false,"ruleset":"core","keep_numbers":true,"relevelled_from":null,'
    b'"numbers":{"ev":12,"stamina":80,"free_strike":4,"echelon":1,"highest_characteristic":3,'
    b'"damage":{"tier1":7,"tier2":10,"tier3":13},"non_strike_damage":{"tier1":4,"tier2":7,"tier3":9},'
    b'"potency":{"tier1":1,"tier2":2,"tier3":3}},'
    b'"characteristics":{"might":2,"agility":1,"reason":0,"intuition":-1,"presence":1},'
    b'"size_class":{"value":1,"letter":"M","or_value":2},"movement":{"speed":5,"modes":["climb"]},'
    b'"stability_value":0,"immunities":[{"type":"fire","value":5}],"weaknesses":[{"type":"holy","value":5}],'
    b'"with_captain":"","kept_as_text":[],"size":"","speed":"","stability":"","signature_name":"",'
    b'"signature_text":"","malice_features":[{"name":"","text":"","cost":3}],"villain_actions":[],'
    b'"homebrew_rules":[],"name":"","keywords":["Goblin","Humanoid"],'
    b'"traits":[{"name":"","text":"","effects":[{"text":""}]}],'
    b'"abilities":[{"name":"","flavour":"","cost":"villain 1","action":"triggered action","trigger":"",'
    b'"keywords":["Area","Magic","Ranged"],"distance":{"kind":"burst","value":3,"text":"3 burst"},'
    b'"target":{"text":"Each enemy in the area"},"effects_before":[{"name":"Effect","text":"","tiers":'
    b'[{"effect":""},{"effect":""},{"effect":""}]}]},{"name":"","cost":"signature","action":"main action",'
    b'"keywords":["Charge","Melee","Strike","Weapon"],"distance":{"kind":"melee","value":1,"text":"Melee 1"},'
    b'"target":{"text":"One creature or object","count":1},"power_roll":{"characteristics":["might"],'
    b'"bonus":2,"tier1":{"damages":[{"amount":3,"types":["fire"]}],"effect":"","potency":'
    b'{"characteristic":"might","value":0}},"tier2":{"damages":[{"amount":5}],"effect":"push 2"},'
    b'"tier3":{"damages":[{"amount":7}],"effect":"the target"}},"effects_after":[{"name":"Effect",'
    b'"text":"","malice":2,"malice_plus":true}]}]}'
)


@dataclass(frozen=True)
class Shared:
    """What a code held: its kind and the object (a monster holds everything its block shows)."""

    kind: Kind
    value: Shareable


def kind_of(value: object) -> Kind:
    """The kind of code `value` makes; InvalidInput for anything the workbench does not share."""
    if isinstance(value, Monster):
        return "monster"
    if isinstance(value, Encounter):
        return "encounter"
    if isinstance(value, Adventure):
        return "adventure"
    raise InvalidInput("value", value, "a Monster, an Encounter or an Adventure")


def tool_of(kind: Kind) -> str:
    """The tool that opens codes of `kind`, in words."""
    return TOOLS[kind]


# ---------------------------------------------------------------- writing


def _content(value: Shareable) -> dict[str, Any]:
    """The file of `value`'s kind as data: its marker, then its model's fields that differ from their defaults."""
    if isinstance(value, Monster):
        record = record_of(value)
        return {"format": record.format, "version": record.version, **record.model_dump(mode="json",
                                                                                          exclude_defaults=True)}
    if isinstance(value, Encounter):
        return {"format": ENCOUNTER_FORMAT, "version": ENCOUNTER_VERSION,
                "encounter": value.model_dump(mode="json", exclude_defaults=True)}
    return {"format": ADVENTURE_FORMAT, "version": ADVENTURE_VERSION,
            "adventure": value.model_dump(mode="json", exclude_defaults=True)}


def _checksum(text: str) -> str:
    return f"{zlib.crc32(text.encode('ascii')):0{CHECKSUM_DIGITS}x}"


def share_code(value: Shareable) -> str:
    """The share code of a Monster, an Encounter (its creatures, party, groups and objectives) or an Adventure
    (its encounters)."""
    kind = kind_of(value)
    text = json.dumps(_content(value), ensure_ascii=False, separators=(",", ":"))
    packer = zlib.compressobj(9, zlib.DEFLATED, _BITS, 9, zlib.Z_DEFAULT_STRATEGY, DICTIONARY)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    body = f"{PREFIX}{VERSION}{KINDS[kind]}.{base64.urlsafe_b64encode(packed).decode('ascii').rstrip('=')}"
    return f"{body}.{_checksum(body)}"


# ---------------------------------------------------------------- reading

_SPACES = re.compile(r"[\s\u200b\u200c\u200d\u2060\ufeff]+")
_CODE = re.compile(r"DSW([0-9]*)([A-Za-z]?)(\.[A-Za-z0-9_-]*)?(\.[0-9a-fA-F]{0,8})?")
_STARTED = re.compile(r"DSW([0-9]+)([A-Za-z]?)(\.[A-Za-z0-9_-]*)?(\.[0-9a-fA-F]{0,8})?")


def _refuse(code: str, reason: str) -> InvalidInput:
    return InvalidInput("code", code, ACCEPTS, reason)


def find_code(text: object) -> str:
    """The code in a pasted text: every space and line break taken out (a chat breaks long lines), the words
    or the link around it left; InvalidInput when the text holds no code."""
    if not isinstance(text, str):
        raise InvalidInput("code", text, ACCEPTS, "a code is text")
    if len(text) > MAX_PASTED_CHARS:
        raise _refuse(f"{len(text):,} characters", f"longer than {MAX_PASTED_CHARS:,} characters, far more than "
                                                    "any code")
    joined = _SPACES.sub("", text)
    found = _STARTED.search(joined) or _CODE.search(joined)  # "DSW" in a word before the code is no code
    if found is None:
        reason = "the text is empty" if not joined else "no code in it: a code starts DSW"
        raise _refuse(text.strip(), reason)
    return found.group(0)


def read_code(text: object, expect: Kind | None = None, ruleset: Ruleset | None = None) -> Shared:
    """What a pasted code holds (see `find_code` for what may surround it). `expect`: the kind the caller's
    tool opens; a code of another kind is refused naming the tool that opens it. Each refusal says what is
    wrong: cut short, a character changed, a newer version, another kind, or content a file of its kind
    would be refused for."""
    code = find_code(text)
    version, letter, payload, checksum = _CODE.fullmatch(code).groups()  # type: ignore[union-attr]
    if not version:
        raise _refuse(code, "the code is cut short: it starts DSW and a version number")
    if int(version) > VERSION:
        raise _refuse(code, f"a code of version {int(version)} is newer than this workbench reads: it reads "
                            f"version {VERSION}; a newer workbench opens it")
    if int(version) < 1 or version != str(int(version)):
        raise _refuse(code, f"{version!r} is no version of a share code; there is version {VERSION}")
    if not letter:
        raise _refuse(code, "the code is cut short: its kind, M, E or A, is missing")
    if letter not in _KIND_OF_LETTER:
        raise _refuse(code, f"{letter!r} is no kind of code: M is a monster, E an encounter, A an adventure")
    kind = _KIND_OF_LETTER[letter]
    if payload is None or checksum is None or len(checksum) < 1 + CHECKSUM_DIGITS:
        raise _refuse(code, "the code is cut short: its end is missing; copy it whole, up to its last "
                            "character")
    if len(code) > MAX_CODE_CHARS:
        raise _refuse(code, f"longer than {MAX_CODE_CHARS:,} characters, which no code the workbench makes is")
    body = code[: -len(checksum)]
    if checksum[1:].lower() != _checksum(body):
        raise _refuse(code, "the checksum does not match: a character was changed, added or lost")
    if expect is not None and kind != expect:
        raise _refuse(code, f"this is {_a(kind)} code; {tool_of(expect)} opens {expect} codes, "
                            f"{tool_of(kind)} opens this one")
    data = _unpacked(code, payload[1:])
    return _shared(code, kind, data, ruleset)


def open_code(text: object, ruleset: Ruleset | None = None) -> Monster | Encounter | Adventure:
    """The Monster, Encounter or Adventure a share code holds (`share_code` makes them). The pasted text may
    hold spaces, line breaks, words or the link around the code; a code cut short, mistyped, of a newer
    version or holding content a file would be refused for is refused (InvalidInput, the reason in words)."""
    return read_code(text, ruleset=ruleset).value


def _a(kind: Kind) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _unpacked(code: str, payload: str) -> Any:
    """The payload's JSON: decoded, unpacked no further than `MAX_UNPACKED` bytes, parsed within the caps."""
    try:
        packed = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    except (binascii.Error, ValueError):
        raise _refuse(code, "its content is not base64url: letters, digits, - and _ only") from None
    unpacker = zlib.decompressobj(_BITS, DICTIONARY)
    try:
        raw = unpacker.decompress(packed, MAX_UNPACKED + 1)
    except zlib.error:
        raise _refuse(code, "its content does not unpack: it is damaged or not a workbench code") from None
    if len(raw) > MAX_UNPACKED or unpacker.unconsumed_tail:
        raise _refuse(code, f"it unpacks to more than {MAX_UNPACKED:,} bytes, the limit for a file the "
                            "workbench reads")
    if not unpacker.eof or unpacker.unused_data:
        raise _refuse(code, "its content is incomplete or has more after its end")
    try:
        return parse_json(raw.decode("utf-8"), "the code")
    except UnicodeDecodeError:
        raise _refuse(code, "its content is not UTF-8 text") from None
    except FileProblem as exc:
        raise _refuse(code, f"its content: {exc.reason}") from None


def _errors(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:3])


def _shared(code: str, kind: Kind, data: Any, ruleset: Ruleset | None) -> Shared:
    """The object of a code's content, checked as a file of its kind is checked when it is loaded."""
    if kind == "monster":
        if not isinstance(data, dict):
            raise _refuse(code, "its content is no monster file")
        try:
            entry = entry_of_record(data, ruleset)
        except InvalidInput as exc:
            raise _refuse(code, f"its monster: {exc.reason}") from None
        return Shared(kind, entry.monster)
    value: Shareable | None
    value, problems = encounter_of_data(data) if kind == "encounter" else adventure_of_data(data)
    if value is None or problems:
        foreign = value is None and problems[:1] != [] and problems[0].startswith('no "format"')
        raise _refuse(code, (f"its content is no {kind} file: " if foreign else f"its {kind} file: ")
                      + "; ".join(problems[:3]))
    return Shared(kind, value)
