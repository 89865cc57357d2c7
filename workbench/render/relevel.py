"""A monster moved to another level, shown as a Director checks it: every number old → new with its working,
beside the stat block at both levels ("Adjusting Monster Levels"; the logic is workbench.monster.relevel).

`relevel_html(monster, level, mode)` is a pure view: a monster and a level in, one HTML fragment out (class
`wb-relevel`), every piece of text escaped. Each moved number is a row of `wb-moves` with its old and new
value, the working ("12 + (9 − 7) = 14" keeps the design's departure; the formula's own working in
formula mode), the formula's value at both levels, and a note when the rules' range kept it at an edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.model import Monster
from workbench.monster.relevel import Mode, Move, relevel, relevel_moves
from workbench.render.escape import Markup, join, stylesheet
from workbench.render.stat_block import stat_block_html

__all__ = ["MODE_WORDS", "relevel_html"]

MODE_WORDS = {
    "delta": "Keep the design's departures (new = old + the formula's change)",
    "formula": "The formulas' numbers at the new level",
}


def _row(move: Move) -> str:
    changed = move.new != move.old
    kept = Markup(' <span class="wb-note">(kept at the rules\' limit)</span>') if move.clamped else ""
    return (
        Markup('<tr class="wb-move{}">'
        "<td>{}</td>"
        '<td class="wb-old">{}</td><td>→</td><td class="wb-new"><b>{}</b></td>'
        '<td class="wb-working">{}{}</td>'
        "<td>{} → {}</td></tr>").format(" wb-moved" if changed else "", move.quantity, move.old, move.new, move.working, kept, move.formula_old.value, move.formula_new.value)
    )


def relevel_html(monster: Monster, level: int, mode: Mode = "delta",
                 block_options: Mapping[str, Any] | None = None) -> str:
    """Old → new for every number the formulas set, with the working, and the two stat blocks side by side.

    Refuses what `relevel` refuses (a level the formulas don't cover, a mode other than delta or formula)
    with its `InvalidInput`.
    """
    moved = relevel(monster, level, mode)
    moves = relevel_moves(monster, level, mode)
    options = dict(block_options or {})
    old_level, new_level = monster.level, moved.level
    rows = join(_row(m) for m in moves)
    changed = sum(1 for m in moves if m.new != m.old)
    heading = (Markup("<p>Level {} → level {}: {} of {} numbers change. "
               "{}.</p>").format(old_level, new_level, changed, len(moves), MODE_WORDS[mode]))
    table = (
        Markup('<table class="wb-moves"><thead><tr><th>Number</th>'
        "<th>Level {}</th><th></th><th>Level {}</th><th>Working</th>"
        "<th>Formula, level {} → {}</th></tr></thead><tbody>{}</tbody></table>").format(old_level, new_level, old_level, new_level, rows)
    )
    blocks = (
        Markup('<div class="wb-relevel-blocks">'
        '<div class="wb-relevel-old"><h4>As designed, level {}</h4>'
        "{}</div>"
        '<div class="wb-relevel-new"><h4>Moved to level {}</h4>'
        "{}</div></div>").format(old_level, stat_block_html(monster, style=False, **options), new_level, stat_block_html(moved, style=False, **options))
    )
    return Markup('{}<div class="wb-relevel" data-from="{}" data-to="{}">{}{}{}</div>').format(stylesheet(), old_level, new_level, heading, table, blocks)
