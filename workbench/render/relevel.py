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
from workbench.render.escape import escape_html as _e
from workbench.render.stat_block import stat_block_html

__all__ = ["MODE_WORDS", "relevel_html"]

MODE_WORDS = {
    "delta": "Keep the design's departures (new = old + the formula's change)",
    "formula": "The formulas' numbers at the new level",
}


def _row(move: Move) -> str:
    changed = move.new != move.old
    kept = ' <span class="wb-note">(kept at the rules\' limit)</span>' if move.clamped else ""
    return (
        f'<tr class="wb-move{" wb-moved" if changed else ""}">'
        f"<td>{_e(move.quantity)}</td>"
        f'<td class="wb-old">{move.old}</td><td>→</td><td class="wb-new"><b>{move.new}</b></td>'
        f'<td class="wb-working">{_e(move.working)}{kept}</td>'
        f"<td>{move.formula_old.value} → {move.formula_new.value}</td></tr>"
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
    rows = "".join(_row(m) for m in moves)
    changed = sum(1 for m in moves if m.new != m.old)
    heading = (f"<p>Level {old_level} → level {new_level}: {changed} of {len(moves)} numbers change. "
               f"{_e(MODE_WORDS[mode])}.</p>")
    table = (
        '<table class="wb-moves"><thead><tr><th>Number</th>'
        f"<th>Level {old_level}</th><th></th><th>Level {new_level}</th><th>Working</th>"
        f"<th>Formula, level {old_level} → {new_level}</th></tr></thead><tbody>{rows}</tbody></table>"
    )
    blocks = (
        '<div class="wb-relevel-blocks" style="display:flex;gap:1em;flex-wrap:wrap;align-items:flex-start">'
        f'<div class="wb-relevel-old" style="flex:1 1 22em"><h4>As designed, level {old_level}</h4>'
        f"{stat_block_html(monster, style=False, **options)}</div>"
        f'<div class="wb-relevel-new" style="flex:1 1 22em"><h4>Moved to level {new_level}</h4>'
        f"{stat_block_html(moved, style=False, **options)}</div></div>"
    )
    style = ("<style>.wb-relevel table.wb-moves{border-collapse:collapse;font-family:system-ui,sans-serif;"
             "font-size:.9em}.wb-relevel .wb-moves td,.wb-relevel .wb-moves th{border-bottom:1px solid #ddd;"
             "padding:.15em .45em;text-align:left;vertical-align:top}.wb-relevel .wb-working{font-family:"
             "ui-monospace,monospace}.wb-relevel tr.wb-move:not(.wb-moved){color:#777}</style>")
    return f'{style}<div class="wb-relevel" data-from="{old_level}" data-to="{new_level}">{heading}{table}{blocks}</div>'
