"""Homebrew rule modules attached to monsters: attaching one with its parameter values (checked), detaching
it, filling an attachment with its saved values for the stat block, and the one-line-per-module text a
builder's box types them in ("exploitable-weakness: tag=Silver").

A monster carries only the module id and the values (`AttachedRule`), so a module file fixed later shows the
fix on every monster it is attached to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from numbers import Integral
from typing import Any

from workbench.errors import InvalidInput
from workbench.homebrew.rule import FilledRule, HomebrewRule, Parameter, shipped_rules
from workbench.model import AttachedRule, Monster, Value

__all__ = ["attach_rule", "detach_rule", "fill_attached", "format_attachments", "parse_attachments"]


def fill_attached(
    attached: AttachedRule, rules: Mapping[str, HomebrewRule] | None = None
) -> FilledRule:
    """The module an attachment names, filled with its saved values (`rules`: shipped modules if None)."""
    rules = shipped_rules() if rules is None else rules
    if attached.rule not in rules:
        raise InvalidInput("rule", attached.rule, "one of " + ", ".join(rules) if rules else "a loaded module id")
    return rules[attached.rule].fill(attached.value_map())


def attach_rule(monster: Monster, rule: HomebrewRule, values: Mapping[str, Any] | None = None) -> Monster:
    """A copy of `monster` with `rule` attached (parameters checked); the same attachment twice is kept once."""
    attached = rule.attachment(values)
    if attached in monster.homebrew_rules:
        return monster
    return monster.model_copy(update={"homebrew_rules": (*monster.homebrew_rules, attached)})


def detach_rule(monster: Monster, index: int) -> Monster:
    """A copy of `monster` without its attached module number `index` (0 = the first)."""
    count = len(monster.homebrew_rules)
    if isinstance(index, bool) or not isinstance(index, Integral) or not 0 <= index < count:
        raise InvalidInput("index", index, f"a whole number from 0 to {count - 1}" if count else "nothing: no module attached")
    kept = monster.homebrew_rules[:index] + monster.homebrew_rules[index + 1 :]
    return monster.model_copy(update={"homebrew_rules": kept})


def _typed(parameter: Parameter, text: str) -> Value:
    if parameter.type == "integer":
        try:
            return parameter.check(int(text))
        except ValueError:
            raise InvalidInput(parameter.name, text, parameter.accepts()) from None
    return parameter.check(text)


def parse_attachments(
    text: str, rules: Mapping[str, HomebrewRule] | None = None
) -> tuple[AttachedRule, ...]:
    """Modules typed one per line, "module-id: name=value, name=value" (a builder's text box), checked.

    >>> parse_attachments("exploitable-weakness: tag=Silver")[0].value_map()["tag"]
    'Silver'
    """
    rules = shipped_rules() if rules is None else rules
    attached: list[AttachedRule] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        rule_id, _, rest = line.partition(":")
        rule_id = rule_id.strip()
        if rule_id not in rules:
            raise InvalidInput(
                "homebrew_rules", line, "one module per line: module-id: name=value, ... with a module id from "
                + ", ".join(rules), f"line {number}: no module {rule_id!r}",
            )
        rule = rules[rule_id]
        values: dict[str, Value] = {}
        for pair in filter(None, (p.strip() for p in rest.split(","))):
            name, equals, value = pair.partition("=")
            if not equals:
                raise InvalidInput("homebrew_rules", pair, "name=value pairs separated by commas",
                                   f"line {number}")
            values[name.strip()] = _typed(rule.parameter(name.strip()), value.strip())
        attachment = rule.attachment(values)
        if attachment not in attached:
            attached.append(attachment)
    return tuple(attached)


def format_attachments(attached: Iterable[AttachedRule]) -> str:
    """The inverse of `parse_attachments`, for putting a saved monster back into a text box."""
    return "\n".join(
        f"{a.rule}: " + ", ".join(f"{k}={v}" for k, v in a.values) if a.values else a.rule for a in attached
    )
