"""The public API's check of its arguments: each public function of `workbench` refuses a value of the wrong
kind with `InvalidInput` naming the argument and what it accepts, before any of its code runs.

The check reads what each parameter accepts from the function's own annotations, so a public function
cannot be added without it, and the annotation and the check never disagree. It looks at the kind of each
value (a whole number, a text, a path, a Monster, a list), never its range: a level of 10^30 is an `int`
and the function itself says which levels the rules cover. A bool is no number here (`True` is no level),
a text is no list, a mapping is no list of values, and a path is a text or `os.PathLike`, not blank and with
no NUL character. An annotation the check cannot read (`Any`, a name imported only for type checkers) is
left to the function.
"""

from __future__ import annotations

import collections.abc as abc
import functools
import inspect
import numbers
import os
import types
import typing
from collections.abc import Callable
from fractions import Fraction
from pathlib import PurePath
from typing import Any, NamedTuple, TypeVar

from workbench.errors import InvalidInput

__all__ = ["MAX_NAME_CHARS", "MAX_PATH_CHARS", "checked", "checked_methods", "checks_itself", "unchecked"]

Function = TypeVar("Function", bound=Callable[..., Any])


class _Check(NamedTuple):
    """Whether a value is of the kind a parameter takes, and how a refusal says what it accepts."""

    accepts: Callable[[Any], bool]
    says: str


MAX_PATH_CHARS = 4096  # the longest path Linux and macOS open (PATH_MAX)
MAX_NAME_CHARS = 255  # the longest name of one file or folder every common file system takes


def _is_path(value: Any) -> bool:
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    return isinstance(value, str) and bool(value.strip()) and "\x00" not in value \
        and len(value) <= MAX_PATH_CHARS and all(len(part) <= MAX_NAME_CHARS for part in value.split("/"))


_CALLABLE: Any = abc.Callable
_PATH = _Check(_is_path, "a file or folder path (a text or a pathlib.Path, not blank, no NUL character, "
                         f"at most {MAX_PATH_CHARS} characters and {MAX_NAME_CHARS} to a name)")


def _whole(value: Any) -> bool:
    return type(value) is int or (isinstance(value, numbers.Integral) and not isinstance(value, bool))


def _of_class(kind: type) -> _Check | None:
    if kind is bool:
        return _Check(lambda v: isinstance(v, bool), "True or False")
    if kind is int:
        return _Check(_whole, "a whole number")
    if kind in (float, numbers.Real):
        return _Check(lambda v: isinstance(v, numbers.Real) and not isinstance(v, bool), "a number")
    if kind in (Fraction, numbers.Rational):
        return _Check(lambda v: isinstance(v, numbers.Rational) and not isinstance(v, bool),
                      "a number (a whole number or a Fraction)")
    if kind is str:
        return _Check(lambda v: isinstance(v, str), "a text")
    if kind is type(None):
        return _Check(lambda v: v is None, "None")
    if issubclass(kind, (PurePath, os.PathLike)):
        return _PATH
    if kind is _CALLABLE:
        return _Check(callable, "a function")
    if kind in (abc.Mapping, abc.MutableMapping, dict):
        return _Check(lambda v: isinstance(v, abc.Mapping), "a mapping (a dict)")
    if kind in (abc.Sequence, list, tuple):
        return _Check(lambda v: isinstance(v, (list, tuple, range)) or (
            isinstance(v, abc.Sequence) and not isinstance(v, (str, bytes))), "a list or a tuple")
    if kind in (abc.Iterable, abc.Collection, abc.Set, frozenset, set):
        return _Check(lambda v: isinstance(v, abc.Iterable) and not isinstance(v, (str, bytes, abc.Mapping)),
                      "a list, a tuple or another collection of values")
    if getattr(kind, "_is_protocol", False):
        return None
    return _Check(lambda v: isinstance(v, kind), f"a {kind.__name__}")


def _check(hint: Any) -> _Check | None:
    """The check for an annotation, or None for one that says nothing checkable (Any, a type variable)."""
    origin = typing.get_origin(hint)
    if hint is Any or hint is object or isinstance(hint, TypeVar):
        return None
    if origin in (typing.Union, types.UnionType):
        members = typing.get_args(hint)
        if any(m is Any or m is object for m in members):
            return None
        if str in members and any(_is_path_kind(m) for m in members):
            members = (os.PathLike, *[m for m in members if m is not str and not _is_path_kind(m)])
        checks = [_check(m) for m in members]
        if any(c is None for c in checks):
            return None
        found = [c for c in checks if c is not None]
        says = " or ".join(dict.fromkeys(c.says for c in found))
        return _Check(lambda v: any(c.accepts(v) for c in found), says)
    if origin is typing.Literal:
        allowed = typing.get_args(hint)
        return _Check(lambda v: any(type(v) is type(a) and v == a for a in allowed),
                      "one of " + ", ".join(repr(a) for a in allowed))
    if origin is typing.Annotated:
        return _check(typing.get_args(hint)[0])
    if origin is not None:
        container = _of_class(origin) if isinstance(origin, type) else None
        if container is None or container is _PATH:
            return container
        return _with_items(container, origin, typing.get_args(hint))
    if isinstance(hint, type):
        return _of_class(hint)
    return None


def _is_path_kind(member: Any) -> bool:
    kind = typing.get_origin(member) or member
    return isinstance(kind, type) and issubclass(kind, (PurePath, os.PathLike))


_HELD = (list, tuple, set, frozenset, range)  # what the check looks inside (an iterator is left unconsumed)


def _with_items(container: _Check, origin: Any, arguments: tuple[Any, ...]) -> _Check:
    """`container`'s check, and each item's (each key's and value's in a mapping) against the annotation's
    arguments, so a list holding junk is refused by name, not deep inside the function."""
    if not arguments:
        return container
    if issubclass(origin, abc.Mapping):
        keys, values = (_check(a) for a in (*arguments, Any)[:2])

        def mapping(v: Any) -> bool:
            return container.accepts(v) and all((keys is None or keys.accepts(k)) and (values is None or values.accepts(x))
                                                for k, x in v.items())

        return _Check(mapping, container.says) if keys or values else container
    if origin is tuple and not (len(arguments) == 2 and arguments[1] is Ellipsis):
        parts = [_check(a) for a in arguments]

        def fixed(v: Any) -> bool:
            return isinstance(v, (list, tuple)) and len(v) == len(parts) and all(
                p is None or p.accepts(x) for p, x in zip(parts, v, strict=True))

        return _Check(fixed, f"a tuple of {len(parts)} ({', '.join(p.says if p else 'any value' for p in parts)})")
    item = _check(arguments[0])
    if item is None:
        return container
    if arguments[0] is str:  # a collection of texts: one text is the function's to take as one (a single keyword)
        return _Check(lambda v: isinstance(v, str) or (container.accepts(v) and (
            not isinstance(v, _HELD) or all(isinstance(x, str) for x in v))), f"{container.says} of texts")
    return _Check(lambda v: container.accepts(v) and (not isinstance(v, _HELD) or all(item.accepts(x) for x in v)),
                  f"{container.says}, each {item.says}")


def _hint(annotation: Any, function: Callable[..., Any]) -> Any:
    """An annotation as an object (under `from __future__ import annotations` it is the source text), or
    Any when it names something the function's module imports only for type checkers."""
    if not isinstance(annotation, str):
        return annotation
    try:
        return eval(annotation, vars(typing) | function.__globals__)  # the module's own source
    except Exception:  # a name imported under TYPE_CHECKING: the function checks it itself
        return Any


def checked(function: Function) -> Function:
    """`function` with each argument checked against its annotation first (`InvalidInput` naming it)."""
    signature = inspect.signature(function)
    checks: dict[str, _Check] = {}
    for name, parameter in signature.parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if parameter.annotation is parameter.empty:
            continue
        check = _check(_hint(parameter.annotation, function))
        if check is not None:
            checks[name] = check
    if getattr(function, "__unchecked__", None) is not None:
        return function
    if _checks_itself(function):
        checks = {}
    parameters = signature.parameters
    options = [n for n, p in parameters.items() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    open_keywords = any(p.kind == p.VAR_KEYWORD for p in parameters.values())
    # the parameters a positional argument fills, in order, and those a keyword may name: a call is matched
    # by position and name at once (`Signature.bind` costs several times more, on methods called in loops)
    by_position = [n for n, p in parameters.items() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    by_name = {n for n, p in parameters.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}

    def refuse(name: str, value: Any) -> None:
        check = checks.get(name)
        if check is not None and not check.accepts(value) and value is not parameters[name].default:
            raise InvalidInput(name, value, check.says)

    refuse_positional = _positional_refusal(by_position, checks, parameters)

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        refuse_positional(args)
        for name, value in kwargs.items():
            if name in by_name:
                refuse(name, value)
            elif not open_keywords:  # an unknown keyword, named with the options there are
                shown_options = ", ".join(o for o in options if o not in ("self", "cls"))
                raise InvalidInput(name, value, f"no such option; the options are: {shown_options}")
        return function(*args, **kwargs)  # a call Python itself refuses (too many arguments): Python says why

    call.__unchecked__ = function  # type: ignore[attr-defined]
    return typing.cast(Function, call)


def _positional_refusal(
    by_position: list[str], checks: dict[str, _Check], parameters: abc.Mapping[str, inspect.Parameter]
) -> Callable[[tuple[Any, ...]], None]:
    """The check of a call's positional arguments: only the parameters with a check are looked at, in order
    (past the named ones: *args, unchecked), since methods checked this way are called in loops."""
    checked_at = [(index, name, checks[name].accepts, parameters[name].default)
                  for index, name in enumerate(by_position) if name in checks]

    def refuse(args: tuple[Any, ...]) -> None:
        given = len(args)
        for index, name, accepts, default in checked_at:
            if index >= given:
                return
            value = args[index]
            if not accepts(value) and value is not default:
                raise InvalidInput(name, value, checks[name].says)

    return refuse


Class = TypeVar("Class", bound=type)


def checked_methods(cls: Class) -> Class:
    """`cls` with each public method its own body defines (class and static methods too) `checked`: a method is
    public API as much as a function is, and a class that gains one has it checked the day it lands."""
    for name, raw in list(vars(cls).items()):
        if name.startswith("_"):
            continue
        if isinstance(raw, (classmethod, staticmethod)) and inspect.isfunction(raw.__func__):
            setattr(cls, name, type(raw)(checked(raw.__func__)))
        elif inspect.isfunction(raw):
            setattr(cls, name, checked(raw))
    return cls


def checks_itself(function: Function) -> Function:
    """Mark `function` as refusing every bad argument itself, kind and range alike, in its own words: `checked`
    then gives it back as it is, so the public name and the module's function refuse with one message (the
    annotations' "a whole number" would otherwise come first and hide "a whole number from 1 to 100")."""
    function.__checks_itself__ = True  # type: ignore[attr-defined]
    return function


def _checks_itself(function: Callable[..., Any]) -> bool:
    return getattr(function, "__checks_itself__", False) is True


def unchecked(function: Callable[..., Any]) -> Callable[..., Any]:
    """The function a `checked` wrapper calls (any other callable as it is)."""
    return getattr(function, "__unchecked__", function)
