"""Homebrew rule modules: a rule written once as a data file and referenced by many stat blocks.

A Director's homebrew system (here `homebrew-monster-rules.txt`, with its own terms: Core, wounds, Partial
Critical, Legendary) defines rules such as the Generic Swarm Rule or the Exploitable Weakness (Tag) trait.
Each lives in `data/rules-homebrew/<id>.toml` (format: `module.schema.json` there) with its name, its text
with `{parameter}` placeholders, its parameters (types, defaults), the tags it responds to and, for the
weakness ladders, the numbers exactly as written. A file is validated when loaded and every problem is
reported at once (`RulesetError`), so a homebrewer fixes a file in one pass. A monster carries the modules
attached to it as `AttachedRule`s (module id + parameter values), so they are saved with the monster.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from numbers import Integral
from os import PathLike
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, TypeGuard

from pydantic import Field, StrictInt, ValidationError, field_validator, model_validator

from workbench.arguments import checked_methods, checks_itself
from workbench.errors import InvalidInput, RulesetError
from workbench.frozen import Frozen
from workbench.io.problem import FileProblem
from workbench.io.reading import read_json, read_toml
from workbench.model import RULE_ID, AttachedRule, Value
from workbench.rules.ruleset import DATA_DIR

__all__ = [
    "AttachedRule",
    "Escalation",
    "FilledRule",
    "HomebrewRule",
    "Ladder",
    "Parameter",
    "RULES_DIR",
    "SCHEMA_PATH",
    "Section",
    "load_rule",
    "load_rules",
    "placeholders",
    "rule_from_dict",
    "rule_schema",
    "shipped_rules",
]

RULES_DIR = DATA_DIR / "rules-homebrew"
SCHEMA_PATH = RULES_DIR / "module.schema.json"
FORMAT = 1

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
# Caps that keep a module from amplifying (a small file whose placeholders repeat long texts renders huge HTML): texts, names and
# values are bounded, and so is the number of placeholders a module may fill.
MAX_TEXT_CHARS = 20_000  # a module's text, a section's text
MAX_LINE_CHARS = 200  # a title, a name, a label, a tag, a section title, a summary line
MAX_VALUE_CHARS = 100  # a parameter's value (text or choice), a default, a choice
MAX_ITEMS = 50  # parameters, sections, tags in a group, choices
MAX_PLACEHOLDERS = 100  # {placeholders} in all of a module's texts together
_IDENTIFIER = re.compile(r"^[a-z][a-z0-9_]*$")
_ID = RULE_ID


def placeholders(text: str) -> tuple[str, ...]:
    """The parameter names written as `{name}` in a text, in order of appearance."""
    return tuple(match.group(1) for match in _PLACEHOLDER.finditer(text))


def _fill(text: str, values: Mapping[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


class Parameter(Frozen):
    """One value a homebrewer sets when attaching the module: N for a swarm, the tag of a weakness."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="identifier used as {name} in the texts")
    label: str = Field(min_length=1, max_length=MAX_LINE_CHARS, description="what a person sees: 'Disperse Value (N)'")
    type: Literal["integer", "text", "choice"]
    description: str = Field("", max_length=MAX_TEXT_CHARS)
    default: StrictInt | str | None = None
    required: bool = Field(False, description="must be given when attached (only without a default)")
    minimum: StrictInt | None = None
    maximum: StrictInt | None = None
    choices: tuple[str, ...] = Field((), max_length=MAX_ITEMS)

    def accepts(self) -> str:
        """What this parameter takes, in words (used by every refusal)."""
        if self.type == "integer":
            if self.minimum is not None and self.maximum is not None:
                return f"a whole number from {self.minimum} to {self.maximum}"
            if self.minimum is not None:
                return f"a whole number from {self.minimum} upwards"
            if self.maximum is not None:
                return f"a whole number up to {self.maximum}"
            return "a whole number"
        if self.type == "choice":
            return "one of " + ", ".join(self.choices)
        return "a non-empty text"

    def check(self, value: Any) -> Value:
        """`value` if it fits this parameter, else `InvalidInput` naming the parameter."""
        if self.type == "integer":
            if isinstance(value, bool) or not isinstance(value, Integral):
                raise InvalidInput(self.name, value, self.accepts())
            number = int(value)
            if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum
            ):
                raise InvalidInput(self.name, value, self.accepts())
            return number
        if not isinstance(value, str) or not value.strip():
            raise InvalidInput(self.name, value, self.accepts())
        if len(value) > MAX_VALUE_CHARS:
            raise InvalidInput(self.name, value, self.accepts(), f"longer than {MAX_VALUE_CHARS} characters")
        if self.type == "choice" and value not in self.choices:
            raise InvalidInput(self.name, value, self.accepts())
        return value.strip()


class ReadOnlyDict(dict[str, Any]):
    """A dict that refuses every change: a module's tag groups and ladders are shared by every caller of
    `shipped_rules`, so changing them in place would change later results. Copies, pickles and serialises as
    a dict does; `dict(...)` of it is a copy to change."""

    def _refuse(self, *args: object, **kwargs: object) -> Any:
        raise TypeError("a rule module's tags and ladders are read-only; change a copy (dict(...))")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))


def _read_only(value: dict[str, Any]) -> dict[str, Any]:
    return ReadOnlyDict(value)


class Ladder(Frozen):
    """A damage ladder as the source writes it: 'One-handed baseline (1) becomes 2, then 2 -> 3 -> 6'."""

    label: str = Field(min_length=1)
    # whole numbers only (StrictInt): a `true` or a "1" typed into a ladder is refused, never read as 1
    baseline: StrictInt = Field(ge=0, description="the unescalated wound on a hit")
    adjusted: tuple[StrictInt, StrictInt, StrictInt] = Field(
        description="the adjusted (escalated) ladder: hit, Partial Critical, Legendary"
    )


class Escalation(Frozen):
    """Weakness damage escalation: the base wound increase and one ladder per grip.

    The limit "Only one weakness escalation source may apply to a hit" is part of the rule itself
    (`workbench.homebrew.weakness`), not a switch.
    """

    base_wound_increase: StrictInt = Field(ge=0)
    ladders: dict[str, Ladder] = Field(min_length=1, description="one ladder per grip: one_handed, ...")

    _ladders_read_only = field_validator("ladders")(_read_only)


class Section(Frozen):
    """A titled part of the module's rule text; lines starting with '- ' are bullets."""

    title: str = Field(min_length=1, max_length=MAX_LINE_CHARS)
    text: str = Field(min_length=1, max_length=MAX_TEXT_CHARS)


@checked_methods
class HomebrewRule(Frozen):
    """A rule module as written in its data file (placeholders not filled in)."""

    format: Literal[1] = Field(description="version of this file format")
    id: str = Field(pattern=_ID, description="stable identity, referenced by monsters")
    title: str = Field(min_length=1, max_length=MAX_LINE_CHARS, description="the module's heading in the source")
    name: str = Field(min_length=1, max_length=MAX_LINE_CHARS, description="the name on a stat block, may hold {placeholders}")
    kind: Literal["rule", "trait"]
    source: str = Field("", max_length=MAX_LINE_CHARS)
    summary: str = Field("", max_length=MAX_TEXT_CHARS)
    text: str = Field(min_length=1, max_length=MAX_TEXT_CHARS, description="what a stat block prints, may hold {placeholders}")
    tags: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, max_length=MAX_ITEMS, description="tag groups the module responds to: escalation, disruption"
    )
    parameters: tuple[Parameter, ...] = Field((), max_length=MAX_ITEMS)
    escalation: Escalation | None = None
    sections: tuple[Section, ...] = Field((), max_length=MAX_ITEMS)

    _tags_read_only = field_validator("tags")(_read_only)

    @model_validator(mode="after")
    def _consistent(self) -> HomebrewRule:
        problems = _cross_problems(self.model_dump())
        if problems:
            raise ValueError(_CROSS_MARK + "\n".join(problems))
        return self

    def parameter(self, name: str) -> Parameter:
        for parameter in self.parameters:
            if parameter.name == name:
                return parameter
        raise InvalidInput("parameter", name, "one of " + ", ".join(p.name for p in self.parameters))

    @checks_itself
    def resolve(self, values: Mapping[str, Any] | None = None, *, partial: bool = False) -> dict[str, Value | None]:
        """Every parameter's value: the one given, else its default; each checked against its type.

        A required parameter left out is refused unless `partial` (a preview of the module as written).
        """
        if values is not None and not isinstance(values, Mapping):
            raise InvalidInput(
                "values", values, "a mapping of parameter names to values, e.g. {'tag': 'Silver'}",
                "for a typed line use parse_attachments",
            )
        values = dict(values or {})
        names = {p.name for p in self.parameters}
        for unknown in sorted(set(values) - names):
            raise InvalidInput(
                "parameter", unknown, "one of " + ", ".join(p.name for p in self.parameters),
                f"{self.id} has no parameter {unknown!r}",
            )
        resolved: dict[str, Value | None] = {}
        for p in self.parameters:
            given = values.get(p.name)
            if given is None:
                if p.required and not partial:
                    raise InvalidInput(p.name, None, p.accepts(), f"{self.id} needs a {p.label}")
                resolved[p.name] = p.default
            else:
                resolved[p.name] = p.check(given)
        return resolved

    @checks_itself
    def fill(self, values: Mapping[str, Any] | None = None, *, partial: bool = False) -> FilledRule:
        """The module with its parameters filled in: what a stat block shows.

        With `partial`, a value nobody gave shows as the parameter's label, so the module reads as the
        source prints it ("Exploitable Weakness (Tag)").
        """
        resolved = self.resolve(values, partial=partial)
        shown = {
            p.name: p.label if resolved[p.name] is None else str(resolved[p.name]) for p in self.parameters
        }
        tags = {
            group: tuple(
                _fill(tag, shown).strip().casefold()
                for tag in group_tags
                if all(resolved.get(n) is not None for n in placeholders(tag))
            )
            for group, group_tags in self.tags.items()
        }
        return FilledRule(
            id=self.id,
            title=self.title,
            name=_fill(self.name, shown),
            kind=self.kind,
            text=_fill(self.text, shown),
            summary=_fill(self.summary, shown),
            tags=tags,
            values=tuple((k, v) for k, v in resolved.items() if v is not None),
            parameters=self.parameters,
            escalation=self.escalation,
            sections=tuple(
                Section(title=_fill(s.title, shown), text=_fill(s.text, shown)) for s in self.sections
            ),
        )

    @checks_itself
    def attachment(self, values: Mapping[str, Any] | None = None) -> AttachedRule:
        """What a monster stores: this module's id and every parameter value (defaults written out)."""
        resolved = self.resolve(values)
        return AttachedRule(rule=self.id, values=tuple((k, v) for k, v in resolved.items() if v is not None))


class FilledRule(Frozen):
    """A module with its parameter values filled into its name, text, sections and tags."""

    id: str
    title: str
    name: str
    kind: Literal["rule", "trait"]
    text: str
    summary: str
    tags: dict[str, tuple[str, ...]]
    values: tuple[tuple[str, Value], ...]
    parameters: tuple[Parameter, ...]
    escalation: Escalation | None
    sections: tuple[Section, ...]

    _tags_read_only = field_validator("tags")(_read_only)

    def value(self, name: str) -> Value | None:
        """A parameter's value (None: not given and no default)."""
        return dict(self.values).get(name)

    def responds_to(self, source_tags: Iterable[str]) -> tuple[str, ...]:
        """The tag groups ('escalation', 'disruption', ...) that a source with these tags triggers."""
        wanted = {t.strip().casefold() for t in source_tags}
        return tuple(group for group, tags in self.tags.items() if wanted & set(tags))

    def matches(self, source_tags: Iterable[str]) -> bool:
        """Whether a source with these tags escalates the wound (it carries a matching tag)."""
        return "escalation" in self.responds_to(source_tags)


# ---------------------------------------------------------------- validation

_CROSS_MARK = "module checks:\n"


def _cross_problems(data: Mapping[str, Any]) -> list[str]:
    """Problems between fields (placeholders, defaults, ladders), found on raw or validated data."""
    declared, problems = _declared_parameters(data.get("parameters") or ())
    texts, tag_problems = _texts(data)
    return [
        *problems,
        *tag_problems,
        *_placeholder_problems(texts, declared),
        *_size_problems(texts),
        *_escalation_problems(data.get("escalation")),
    ]


def _declared_parameters(raw_parameters: object) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """The parameters by name, and the problems of each one (a name declared twice among them)."""
    problems: list[str] = []
    declared: dict[str, dict[str, Any]] = {}
    if not isinstance(raw_parameters, (list, tuple)):
        return declared, problems
    for index, p in enumerate(raw_parameters):
        if not isinstance(p, Mapping):
            continue
        name = p.get("name")
        where = f"parameters[{index}] ({name})" if isinstance(name, str) else f"parameters[{index}]"
        if isinstance(name, str):
            if name in declared:
                problems.append(f"{where}: the parameter name {name!r} is declared twice")
            declared[name] = dict(p)
        problems.extend(f"{where}: {problem}" for problem in _parameter_problems(p))
    return declared, problems


def _texts(data: Mapping[str, Any]) -> tuple[list[tuple[str, Any]], list[str]]:
    """Every text that may hold {placeholders}, with where it sits; and the empty tags met on the way."""
    problems: list[str] = []
    texts: list[tuple[str, Any]] = [(key, data.get(key)) for key in ("title", "name", "text", "summary")]
    sections = data.get("sections") or ()
    if isinstance(sections, (list, tuple)):
        for index, s in enumerate(sections):
            if isinstance(s, Mapping):
                texts += [(f"sections[{index}].title", s.get("title")), (f"sections[{index}].text", s.get("text"))]
    tags = data.get("tags") or {}
    if isinstance(tags, Mapping):
        for group, group_tags in tags.items():
            if isinstance(group_tags, (list, tuple)):
                texts += [(f"tags.{group}[{i}]", tag) for i, tag in enumerate(group_tags)]
                if any(isinstance(t, str) and not t.strip() for t in group_tags):
                    problems.append(f"tags.{group}: a tag is empty")
    return texts, problems


def _placeholder_problems(texts: list[tuple[str, Any]], declared: Mapping[str, object]) -> list[str]:
    problems: list[str] = []
    for where, text in texts:
        if not isinstance(text, str):
            continue
        for name in placeholders(text):
            if not _IDENTIFIER.match(name):
                problems.append(f"{where}: {{{name}}} is not a parameter name (lower case, digits, _)")
            elif name not in declared:
                problems.append(f"{where}: {{{name}}} is not a declared parameter")
    return problems


def _size_problems(texts: list[tuple[str, Any]]) -> list[str]:
    """Tags longer than a line, defaults and choices longer than a value, and too many placeholders."""
    problems = [
        f"{where}: longer than {MAX_LINE_CHARS} characters"
        for where, text in texts
        if where.startswith("tags.") and isinstance(text, str) and len(text) > MAX_LINE_CHARS
    ]
    count = sum(len(_PLACEHOLDER.findall(text)) for _, text in texts if isinstance(text, str))
    if count > MAX_PLACEHOLDERS:
        problems.append(f"{count} {{placeholders}} in the module's texts; at most {MAX_PLACEHOLDERS}")
    return problems


def _escalation_problems(escalation: object) -> list[str]:
    problems: list[str] = []
    if not isinstance(escalation, Mapping):
        return problems
    increase = escalation.get("base_wound_increase")
    ladders = escalation.get("ladders")
    if isinstance(ladders, Mapping):
        for grip, ladder in ladders.items():
            if not _IDENTIFIER.match(str(grip)):
                problems.append(f"escalation.ladders.{grip}: a grip is written lower_case_with_underscores")
            problems.extend(_ladder_problems(f"escalation.ladders.{grip}", ladder, increase))
    return problems


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _value_length_problems(default: object, choices: object) -> list[str]:
    """A default or a choice longer than a value may be (a module must not amplify)."""
    problems = []
    if isinstance(default, str) and len(default) > MAX_VALUE_CHARS:
        problems.append(f"the default is longer than {MAX_VALUE_CHARS} characters")
    if isinstance(choices, (list, tuple)) and any(isinstance(c, str) and len(c) > MAX_VALUE_CHARS for c in choices):
        problems.append(f"a choice is longer than {MAX_VALUE_CHARS} characters")
    return problems


def _parameter_problems(p: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    kind, default = p.get("type"), p.get("default")
    minimum, maximum, choices = p.get("minimum"), p.get("maximum"), p.get("choices") or ()
    if p.get("required") and default is not None:
        problems.append("a required parameter cannot have a default (drop one of the two)")
    problems.extend(_value_length_problems(default, choices))
    if kind != "integer" and (minimum is not None or maximum is not None):
        problems.append("minimum/maximum are for integer parameters only")
    if kind != "choice" and choices:
        problems.append("choices are for choice parameters only")
    if kind == "integer":
        if _is_int(minimum) and _is_int(maximum) and minimum > maximum:
            problems.append(f"minimum {minimum} is above maximum {maximum}")
        if default is not None:
            if not _is_int(default):
                problems.append(f"default {default!r} is not a whole number")
            elif _is_int(minimum) and default < minimum:
                problems.append(f"default {default} is below its minimum {minimum}")
            elif _is_int(maximum) and default > maximum:
                problems.append(f"default {default} is above its maximum {maximum}")
    elif kind == "choice":
        if not choices:
            problems.append("a choice parameter needs choices")
        if default is not None and default not in choices:
            problems.append(f"default {default!r} is not one of its choices")
    elif kind == "text" and default is not None and (not isinstance(default, str) or not default.strip()):
        problems.append(f"default {default!r} is not a non-empty text")
    return problems


def _ladder_problems(where: str, ladder: Any, increase: Any) -> list[str]:
    if not isinstance(ladder, Mapping):
        return []
    baseline, adjusted = ladder.get("baseline"), ladder.get("adjusted")
    if not (_is_int(baseline) and isinstance(adjusted, (list, tuple)) and len(adjusted) == 3):
        return []
    if not all(_is_int(v) for v in adjusted):
        return []
    problems = []
    if _is_int(increase) and adjusted[0] != baseline + increase:
        problems.append(
            f"{where}: the adjusted ladder starts at {adjusted[0]}, but baseline {baseline} with the"
            f" base wound increase (+{increase}) becomes {baseline + increase}"
        )
    if list(adjusted) != sorted(adjusted):
        problems.append(f"{where}: the adjusted ladder {list(adjusted)} must not fall from hit to Legendary")
    return problems


def _location(loc: tuple[Any, ...], data: Mapping[str, Any]) -> str:
    parts: list[str] = []
    for index, part in enumerate(loc):
        if isinstance(part, int):
            parts[-1] += f"[{part}]"
            if index == 1 and loc[0] == "parameters":
                raw = data.get("parameters")
                entry = raw[part] if isinstance(raw, list) and part < len(raw) else None
                name = entry.get("name") if isinstance(entry, Mapping) else None
                if isinstance(name, str):
                    parts[-1] += f" ({name})"
        else:
            parts.append(str(part))
    return ".".join(parts) or "module"


def rule_from_dict(data: Mapping[str, Any], source: str = "module") -> HomebrewRule:
    """Validate a module given as plain data; every problem is reported in one `RulesetError`."""
    if not isinstance(data, Mapping):
        raise RulesetError(source, ["a module file holds one table/object of fields"])
    try:
        return HomebrewRule.model_validate(dict(data))
    except ValidationError as exc:
        problems, cross = [], []
        for error in exc.errors():
            message = str(error["msg"])
            if _CROSS_MARK in message:  # the same checks are run on the raw data below, with nothing skipped
                cross += message.split(_CROSS_MARK, 1)[1].splitlines()
                continue
            problems.append(f"{_location(error['loc'], data)}: {message}")
        for problem in _cross_problems(data) or cross:  # `cross`: data that only checks once converted
            if problem not in problems:
                problems.append(problem)
        raise RulesetError(source, problems) from None


def load_rule(path: str | Path, *, inside: str | Path | None = None) -> HomebrewRule:
    """Load and validate one module file (`.toml` or `.json`); problems are reported under its name.

    Read through `workbench.io.reading` (size, depth and number caps; `inside`: a link out of that
    folder is refused), and the texts are capped (`MAX_TEXT_CHARS`) so a module cannot amplify.
    """
    if not isinstance(path, (str, PathLike)) or not str(path).strip():
        raise InvalidInput("path", path, "a rule module file (.toml or .json)")
    path = Path(path)
    try:
        if path.suffix == ".json":
            data = read_json(path, inside=inside, source=path.name)
        else:
            data = read_toml(path, inside=inside, source=path.name, parse_float=float)
    except FileProblem as exc:
        raise RulesetError(path.name, [exc.reason]) from None
    return rule_from_dict(data, source=path.name)


def _module_files(folder: Path) -> list[Path]:
    files = [*folder.glob("*.toml"), *folder.glob("*.json")]
    return sorted(p for p in files if not p.name.endswith(".schema.json"))


def load_rules(folder: str | Path = RULES_DIR) -> dict[str, HomebrewRule]:
    """Every module file in a folder, by id. Bad files are all reported at once, each by its file name."""
    if not isinstance(folder, (str, PathLike)) or not str(folder).strip():
        raise InvalidInput("folder", folder, "a folder of rule modules (.toml or .json files)")
    folder = Path(folder)
    if not folder.is_dir():
        raise RulesetError(str(folder), ["not a folder of rule modules"])
    rules: dict[str, HomebrewRule] = {}
    owners: dict[str, str] = {}
    problems: list[str] = []
    for path in _module_files(folder):
        try:
            rule = load_rule(path, inside=folder)
        except RulesetError as exc:
            problems.extend(f"{path.name}: {problem}" for problem in exc.problems)
            continue
        except (ValueError, TypeError, ArithmeticError, RecursionError, MemoryError) as exc:
            # whatever a hostile file provokes beyond the checks, it is reported by name, never raised
            problems.append(f"{path.name}: cannot be loaded ({type(exc).__name__})")
            continue
        if rule.id in rules:
            problems.append(f"{path.name}: id {rule.id!r} is already used by {owners[rule.id]}")
            continue
        rules[rule.id] = rule
        owners[rule.id] = path.name
    if problems:
        raise RulesetError(str(folder), problems)
    return rules


@cache
def shipped_rules() -> Mapping[str, HomebrewRule]:
    """The modules shipped in `data/rules-homebrew/`: the Generic Swarm Rule and Exploitable Weakness.

    Read-only (a `MappingProxyType` over frozen modules): it is loaded once per process and shared, so a
    caller that could add, replace or delete a module would change every later result. `dict(...)` of it is a
    copy to change.
    """
    return MappingProxyType(load_rules(RULES_DIR))


def rule_schema() -> dict[str, Any]:
    """The published JSON schema of a module file (the same as `data/rules-homebrew/module.schema.json`)."""
    schema = HomebrewRule.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://drawsteel-workbench.invalid/schemas/homebrew-rule-module.schema.json",
        **schema,
        "title": "Homebrew rule module",
    }
