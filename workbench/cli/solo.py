"""`workbench solo`: a leader or elite made an instant solo ("Instant Solo Creature"), as text or JSON.

JSON: the instant solo's attributes (the same keys as `workbench monster`; its organization stays the
leader's or elite's, see `workbench.monster.solo`), plus `instant_solo_of` (the leader's or elite's EV and Stamina)
and `working` (how its EV and Stamina were computed).
"""

from __future__ import annotations

import argparse

from workbench.cli import emit
from workbench.cli.monster import add_monster_options, monster_from_options
from workbench.fight.malice_features import malicious_strike_range
from workbench.monster.solo import explain_instant_solo, instant_solo
from workbench.render.solo import solo_title
from workbench.render.text import stat_block_text
from workbench.rules.feature_book import feature_book

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "solo", help="a leader or elite adapted into a solo (EV x 3, Stamina x 2.5, solo traits)"
    )
    add_monster_options(parser, organization_help="leader or elite", role_help="the elite's role (a leader has none)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    source = monster_from_options(args)
    solo = instant_solo(source)
    steps = explain_instant_solo(solo)[:2]
    payload = solo.model_dump(mode="json")
    payload["instant_solo_of"] = {
        "organization": source.organization,
        "role": source.role,
        "ev": source.ev,
        "stamina": source.stamina,
    }
    payload["working"] = {s.quantity.lower(): str(s) for s in steps}
    low, high = malicious_strike_range(solo)
    book = feature_book()
    basic = [
        f"  {f.name} ({f.cost_label}, every monster): "
        + (f"+{low} to +{high} extra damage for this monster." if f.name == book.malicious_strike.name else f.text)
        for f in book.basic_malice.features
    ]
    lines = [
        solo_title(solo),
        stat_block_text(solo),
        "",
        "Instant Solo Creature:",
        *(f"  {s}   ({s.reading})" for s in steps),
        "",
        "Traits:",
        *(f"  {t.name}: {t.text}" for t in solo.traits),
        "Malice features:",
        *(f"  {f.name} ({f.cost} Malice): {f.text}" for f in solo.malice_features),
        *basic,
    ]
    emit(payload, args.json, "\n".join(lines))
