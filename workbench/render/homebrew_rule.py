"""Homebrew rule modules as HTML and Markdown: on a monster's stat block, in full, and the weakness table.

A module attached to a monster shows with its parameters filled in ("Exploitable Weakness (Silver)"). Every
text comes from a data file a homebrewer wrote, so all of it is escaped (`html.escape`) before it becomes
HTML, and Markdown markup characters are quoted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from workbench.errors import InvalidInput
from workbench.homebrew.attach import fill_attached
from workbench.homebrew.rule import FilledRule, HomebrewRule, shipped_rules
from workbench.homebrew.weakness import OUTCOME_LABELS, Wound
from workbench.model import Monster
from workbench.render.escape import escape_html as _e
from workbench.render.markdown_text import md_inline as _md

__all__ = [
    "STYLE",
    "homebrew_rules_html",
    "homebrew_rules_markdown_lines",
    "rule_html",
    "rule_markdown",
    "text_html",
    "weakness_table_html",
    "wound_html",
]

STYLE = """<style>
.wb-homebrew-rule{font-family:system-ui,sans-serif;max-width:44em;line-height:1.35}
.wb-homebrew-rule h4{margin:.6em 0 .15em;border-bottom:1px solid #c9b48a}
.wb-homebrew-rule .wb-note,.wb-weakness .wb-note{font-size:.85em;color:#555}
.wb-weakness table{border-collapse:collapse;font-family:system-ui,sans-serif;font-size:.9em}
.wb-weakness td,.wb-weakness th{border-bottom:1px solid #ddd;padding:.2em .5em;text-align:left}
.wb-weakness td.wb-wound{font-weight:700;text-align:center}
</style>"""


def _filled(rule: FilledRule | HomebrewRule) -> FilledRule:
    return rule.fill(partial=True) if isinstance(rule, HomebrewRule) else rule


def text_html(text: str) -> str:
    """A module text as HTML: blank lines part paragraphs, lines starting with '- ' are bullets."""
    out: list[str] = []
    for block in text.split("\n\n"):
        lines = [line.rstrip() for line in block.strip().splitlines() if line.strip()]
        i = 0
        while i < len(lines):
            if lines[i].lstrip().startswith("- "):
                items = []
                while i < len(lines) and lines[i].lstrip().startswith("- "):
                    items.append(f"<li>{_e(lines[i].lstrip()[2:])}</li>")
                    i += 1
                out.append(f"<ul>{''.join(items)}</ul>")
            else:
                para = []
                while i < len(lines) and not lines[i].lstrip().startswith("- "):
                    para.append(_e(lines[i]))
                    i += 1
                out.append(f"<p>{'<br>'.join(para)}</p>")
    return "".join(out)


def _text_markdown(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("- "):
            lines.append("- " + _md(stripped[2:]))
        else:
            lines.append(_md(stripped) + ("  " if stripped else ""))
    return lines


def _parameter_rows(rule: FilledRule) -> str:
    values = dict(rule.values)
    rows = []
    for p in rule.parameters:
        shown = values.get(p.name)
        rows.append(
            f"<tr><th>{_e(p.label)}</th><td data-parameter=\"{_e(p.name)}\">"
            f"{'—' if shown is None else _e(shown)}</td><td class=\"wb-note\">{_e(p.description)}</td></tr>"
        )
    return f"<table class=\"wb-parameters\">{''.join(rows)}</table>" if rows else ""


def rule_html(rule: FilledRule | HomebrewRule, *, full: bool = True, style: bool = True) -> str:
    """A module on its own: its filled name and stat block text; with `full`, its parameters and sections."""
    rule = _filled(rule)
    parts = [
        f'<h4 class="wb-rule-name">{_e(rule.name)}</h4>',
        f'<div class="wb-note">{_e(rule.title)} · {_e(rule.kind)} · <code>{_e(rule.id)}</code></div>',
        f'<div class="wb-rule-text">{text_html(rule.text)}</div>',
    ]
    if full:
        if rule.summary:
            parts.append(f'<div class="wb-note">{text_html(rule.summary)}</div>')
        parts.append(_parameter_rows(rule))
        for section in rule.sections:
            parts.append(f"<h4>{_e(section.title)}</h4>{text_html(section.text)}")
    body = "".join(parts)
    return f'{STYLE if style else ""}<div class="wb-homebrew-rule" data-rule="{_e(rule.id)}">{body}</div>'


def rule_markdown(rule: FilledRule | HomebrewRule, *, full: bool = True) -> str:
    """The same as Markdown."""
    rule = _filled(rule)
    lines = [f"### {_md(rule.name)}", "", f"*{_md(rule.title)} · {rule.kind}*", "", *_text_markdown(rule.text)]
    if full:
        values = dict(rule.values)
        if rule.parameters:
            lines += ["", "| Parameter | Value |", "|---|---|"]
            lines += [f"| {_md(p.label)} | {_md(values.get(p.name, '—'))} |" for p in rule.parameters]
        for section in rule.sections:
            lines += ["", f"#### {_md(section.title)}", "", *_text_markdown(section.text)]
    return "\n".join(lines) + "\n"


def _attached(
    monster: Monster, modules: Mapping[str, HomebrewRule] | None
) -> list[tuple[str, FilledRule | None, str]]:
    """Each attachment filled in, or None with why not: its module is not loaded, or a saved value is refused."""
    loaded = shipped_rules() if modules is None else modules
    shown: list[tuple[str, FilledRule | None, str]] = []
    for attached in monster.homebrew_rules:
        if attached.rule not in loaded:
            shown.append((attached.rule, None, "rule module not loaded"))
            continue
        try:
            shown.append((attached.rule, fill_attached(attached, loaded), ""))
        except InvalidInput as exc:
            shown.append((attached.rule, None, f"saved value refused: {exc}"))
    return shown


def homebrew_rules_html(
    monster: Monster, *, modules: Mapping[str, HomebrewRule] | None = None, **_: object
) -> str:
    """The stat block section of the modules attached to `monster` ("" if none), parameters filled in.

    `modules`: the loaded modules by id (the shipped ones if None). A module that is not loaded is named,
    not dropped, so nothing saved with the monster disappears from its block.
    """
    attached = _attached(monster, modules)
    if not attached:
        return ""
    items = []
    for rule_id, rule, problem in attached:
        if rule is None:
            items.append(
                f'<div class="wb-block-item wb-homebrew-missing" data-rule="{_e(rule_id)}"><b>{_e(rule_id)}</b> '
                f'<span class="wb-note">({_e(problem)})</span></div>'
            )
            continue
        items.append(
            f'<div class="wb-block-item wb-homebrew-item" data-rule="{_e(rule.id)}">'
            f'<b class="wb-item-name">{_e(rule.name)}</b> '
            f'<span class="wb-item-text">{_e(" ".join(rule.text.split()))}</span></div>'
        )
    return f'<div class="wb-homebrew-rules"><h4>Homebrew Rules</h4>{"".join(items)}</div>'


def homebrew_rules_markdown_lines(
    monster: Monster, modules: Mapping[str, HomebrewRule] | None = None
) -> list[str]:
    """Markdown lines of the same section (an empty list if no module is attached)."""
    attached = _attached(monster, modules)
    if not attached:
        return []
    lines = ["", "#### Homebrew Rules", ""]
    for rule_id, rule, problem in attached:
        if rule is None:
            lines.append(f"- **{_md(rule_id)}** ({_md(problem)})")
        else:
            lines.append(f"- **{_md(rule.name)}** {_md(' '.join(rule.text.split()))}")
    return lines


def _wound_value(wound: Wound) -> str:
    return "not given" if wound.value is None else str(wound.value)


def wound_html(wound: Wound) -> str:
    """One wound with its working and, where one was used, the reading."""
    how = "escalated" if wound.escalated else "not escalated"
    by = f" by {_e(wound.escalated_by)}" if wound.escalated_by else ""
    reading = f'<div class="wb-note">Reading: {_e(wound.reading)}</div>' if wound.reading else ""
    missing = (
        f'<div class="wb-note">Set the module parameter <code>{_e(wound.missing)}</code> to your system\'s value.</div>'
        if wound.missing
        else ""
    )
    return (
        f'<div class="wb-weakness" data-wound="{_e(_wound_value(wound))}">'
        f'<div><b>Wound: <span class="wb-wound">{_e(_wound_value(wound))}</span></b> ({how}{by})</div>'
        f'<div><code>{_e(wound.working)}</code></div>{reading}{missing}</div>'
    )


def weakness_table_html(cases: Iterable[Wound], *, style: bool = True) -> str:
    """Every case in one table: grip, outcome, tag match, another source already applied, the wound."""
    rows = []
    for c in cases:
        rows.append(
            "<tr>"
            f"<td>{_e(c.grip.replace('_', '-'))}</td><td>{_e(OUTCOME_LABELS[c.outcome])}</td>"
            f"<td>{'yes' if c.matches_tag else 'no'}</td><td>{'yes' if c.other_source_applied else 'no'}</td>"
            f'<td class="wb-wound">{_e(_wound_value(c))}</td><td class="wb-note">{_e(c.working)}</td>'
            "</tr>"
        )
    head = (
        "<tr><th>Grip</th><th>Outcome</th><th>Tag matches</th><th>Another source applied</th>"
        "<th>Wound</th><th>Working</th></tr>"
    )
    return f'{STYLE if style else ""}<div class="wb-weakness"><table>{head}{"".join(rows)}</table></div>'
