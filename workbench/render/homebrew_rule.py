"""Homebrew rule modules as HTML and Markdown: on a monster's stat block, in full, and the weakness table.

A module attached to a monster shows with its parameters filled in ("Exploitable Weakness (Silver)"). Every
text comes from a data file a homebrewer wrote, so all of it is plain text in `Markup` HTML (escaped) before it
shows, and Markdown markup characters are quoted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from workbench.errors import InvalidInput
from workbench.homebrew.attach import fill_attached
from workbench.homebrew.rule import FilledRule, HomebrewRule, shipped_rules
from workbench.homebrew.weakness import OUTCOME_LABELS, Wound
from workbench.model import Monster
from workbench.render.escape import Markup, join, stylesheet
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

STYLE = stylesheet()


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
                    items.append(Markup("<li>{}</li>").format(lines[i].lstrip()[2:]))
                    i += 1
                out.append(Markup("<ul>{}</ul>").format(join(items)))
            else:
                para = []
                while i < len(lines) and not lines[i].lstrip().startswith("- "):
                    para.append(lines[i])
                    i += 1
                out.append(Markup("<p>{}</p>").format(join(para, Markup("<br>"))))
    return join(out)


def _text_markdown(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("- "):
            lines.append("- " + _md(stripped[2:]))
        else:
            lines.append(_md(stripped) + ("  " if stripped else ""))
    return lines


def _parameter_rows(rule: FilledRule) -> Markup:
    values = dict(rule.values)
    rows = []
    for p in rule.parameters:
        shown = values.get(p.name)
        rows.append(
            Markup("<tr><th>{}</th><td data-parameter=\"{}\">"
            "{}</td><td class=\"wb-note\">{}</td></tr>").format(p.label, p.name, '—' if shown is None else shown, p.description)
        )
    return Markup("<table class=\"wb-parameters\">{}</table>").format(join(rows)) if rows else Markup()


def rule_html(rule: FilledRule | HomebrewRule, *, full: bool = True, style: bool = True) -> str:
    """A module on its own: its filled name and stat block text; with `full`, its parameters and sections."""
    rule = _filled(rule)
    parts = [
        Markup('<h4 class="wb-rule-name">{}</h4>').format(rule.name),
        Markup('<div class="wb-note">{} · {} · <code>{}</code></div>').format(rule.title, rule.kind, rule.id),
        Markup('<div class="wb-rule-text">{}</div>').format(text_html(rule.text)),
    ]
    if full:
        if rule.summary:
            parts.append(Markup('<div class="wb-note">{}</div>').format(text_html(rule.summary)))
        parts.append(_parameter_rows(rule))
        for section in rule.sections:
            parts.append(Markup("<h4>{}</h4>{}").format(section.title, text_html(section.text)))
    body = join(parts)
    return Markup('{}<div class="wb-homebrew-rule" data-rule="{}">{}</div>').format(STYLE if style else "", rule.id, body)


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
                Markup('<div class="wb-block-item wb-homebrew-missing" data-rule="{}"><b>{}</b> '
                '<span class="wb-note">({})</span></div>').format(rule_id, rule_id, problem)
            )
            continue
        items.append(
            Markup('<div class="wb-block-item wb-homebrew-item" data-rule="{}">'
            '<b class="wb-item-name">{}</b> '
            '<span class="wb-item-text">{}</span></div>').format(rule.id, rule.name, " ".join(rule.text.split()))
        )
    return Markup('<div class="wb-homebrew-rules"><h4>Homebrew Rules</h4>{}</div>').format(join(items))


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
    by = Markup(" by {}").format(wound.escalated_by) if wound.escalated_by else ""
    reading = Markup('<div class="wb-note">Reading: {}</div>').format(wound.reading) if wound.reading else ""
    missing = (
        Markup('<div class="wb-note">Set the module parameter <code>{}</code> to your system\'s value.</div>').format(wound.missing)
        if wound.missing
        else ""
    )
    return (
        Markup('<div class="wb-weakness" data-wound="{}">'
        '<div><b>Wound: <span class="wb-wound">{}</span></b> ({}{})</div>'
        '<div><code>{}</code></div>{}{}</div>').format(_wound_value(wound), _wound_value(wound), how, by, wound.working, reading, missing)
    )


def weakness_table_html(cases: Iterable[Wound], *, style: bool = True) -> str:
    """Every case in one table: grip, outcome, tag match, another source already applied, the wound."""
    rows = []
    for c in cases:
        rows.append(
            Markup("<tr>"
            "<td>{}</td><td>{}</td>"
            "<td>{}</td><td>{}</td>"
            '<td class="wb-wound">{}</td><td class="wb-note">{}</td>'
            "</tr>").format(c.grip.replace('_', '-'), OUTCOME_LABELS[c.outcome], 'yes' if c.matches_tag else 'no', 'yes' if c.other_source_applied else 'no', _wound_value(c), c.working)
        )
    head = Markup(
        "<tr><th>Grip</th><th>Outcome</th><th>Tag matches</th><th>Another source applied</th>"
        "<th>Wound</th><th>Working</th></tr>"
    )
    return Markup('{}<div class="wb-weakness"><table>{}{}</table></div>').format(STYLE if style else "", head, join(rows))
