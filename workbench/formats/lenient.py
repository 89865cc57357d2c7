"""What the readers share to open a real file whole where its maker left a gap: simple formulas, and the
organization and role a file does not name.

- `evaluate("7+5")` reads whole-number arithmetic (+, -, *, parentheses) and named values
  (`@potency.weak`), without `eval`: anything else gives None, and the reader keeps the words as text.
- `closest_stat_block(...)` picks, among the organizations and roles the file leaves open, the one whose
  formulas come closest to the numbers it prints (EV, Stamina, free strike). The formulas need both to
  build a monster; the file's own numbers stay as printed, and the reader notes the choice on the block.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from workbench.errors import InvalidInput
from workbench.monster.formulas import build_monster
from workbench.rules.limits import MAX_NUMBER
from workbench.rules.ruleset import Ruleset, core_ruleset

__all__ = ["closest_stat_block", "evaluate"]

_TOKEN = re.compile(r"\s*(?:(\d+)|(@[A-Za-z_][\w.]*)|([-+*()]))")
MAX_FORMULA_CHARS = 200


def _tokens(text: str) -> list[str] | None:
    tokens, at = [], 0
    text = text.rstrip()
    while at < len(text):
        match = _TOKEN.match(text, at)
        if not match:
            return None
        tokens.append(match.group(match.lastindex or 0))
        at = match.end()
    return tokens


class _Formula:
    """A recursive-descent reading of + - * ( ) over whole numbers and named values; None on anything else."""

    def __init__(self, tokens: list[str], names: Mapping[str, int]) -> None:
        self.tokens, self.names, self.at = tokens, names, 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        self.at += 1
        return self.tokens[self.at - 1]

    def factor(self) -> int | None:
        token = self.peek()
        if token is None:
            return None
        self.take()
        if token == "-":
            value = self.factor()
            return None if value is None else -value
        if token == "(":
            value = self.expression()
            if value is None or self.peek() != ")":
                return None
            self.take()
            return value
        if token.isdigit():
            return int(token) if len(token) <= 7 else None
        return self.names.get(token[1:]) if token.startswith("@") else None

    def term(self) -> int | None:
        value = self.factor()
        while value is not None and self.peek() == "*":
            self.take()
            right = self.factor()
            value = None if right is None else value * right
        return value

    def expression(self) -> int | None:
        value = self.term()
        while value is not None and self.peek() in ("+", "-"):
            sign = self.take()
            right = self.term()
            value = None if right is None else value + right if sign == "+" else value - right
        return value


def evaluate(formula: str, names: Mapping[str, int] | None = None) -> int | None:
    """The whole number a simple formula gives ("7+5" → 12, "@potency.weak+1" with its value named), or None
    for anything else (dice, functions, unknown names, a result beyond the workbench's numbers)."""
    if not isinstance(formula, str) or len(formula) > MAX_FORMULA_CHARS:
        return None
    tokens = _tokens(formula)
    if not tokens:
        return None
    reader = _Formula(tokens, names or {})
    result = reader.expression()
    if result is None or reader.at != len(tokens) or abs(result) > MAX_NUMBER:
        return None
    return result


def _distance(printed: int | None, formula: int) -> Fraction:
    if printed is None:
        return Fraction(0)
    return Fraction(abs(printed - formula), max(1, abs(printed)))


def closest_stat_block(
    level: int,
    organization: str | None,
    role: str | None,
    printed: Mapping[str, int | None],
    ruleset: Ruleset | None = None,
) -> tuple[str, str | None]:
    """The organization and role (each given one kept) whose formulas at `level` come closest to the printed
    `ev`, `stamina` and `free_strike` (relative differences added; ties to the rules' order)."""
    rules = ruleset or core_ruleset()
    best: tuple[Fraction, str, str | None] | None = None
    for name, org in rules.organizations.items():
        if organization is not None and name != organization:
            continue
        roles = [r for r in rules.roles if role is None or r == role] if org.needs_role else [None]
        for candidate in roles:
            try:
                monster = build_monster(level=level, organization=name, role=candidate, ruleset=rules)
            except InvalidInput:
                continue
            score = sum((_distance(printed.get(key), getattr(monster, key)) for key in ("ev", "stamina",
                                                                                       "free_strike")),
                        Fraction(0))
            if best is None or score < best[0]:
                best = (score, name, candidate)
    if best is None:
        raise InvalidInput("organization", organization, "one of " + ", ".join(rules.organizations))
    return best[1], best[2]
