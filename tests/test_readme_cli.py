"""The README's command line is the real one: every `workbench ...` line it documents is a subcommand whose
`--help` runs and names each option the line shows, every subcommand is documented, and every `make` target it
names is in the Makefile."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_process import run_cli

REPO_ROOT = Path(__file__).resolve().parents[1]
README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])(?![\w-])")


def _command_lines() -> list[str]:
    """The lines of the README's command-line section's code block that run `workbench`, comments cut off."""
    section = README.split("### The command line", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].strip() for line in block.splitlines() if line.startswith("workbench ")]


def _documented() -> dict[str, set[str]]:
    """Subcommand -> the options its README lines show."""
    options: dict[str, set[str]] = {}
    for line in _command_lines():
        command = line.split()[1]
        options.setdefault(command, set()).update(OPTION.findall(line))
    return options


DOCUMENTED = _documented()


def _help(*args: str) -> str:
    result = run_cli(*args, "--help")
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_readme_documents_commands():
    assert len(DOCUMENTED) >= 10 and "monster" in DOCUMENTED


@pytest.mark.parametrize("command", sorted(DOCUMENTED))
def test_each_documented_command_has_each_documented_option(command):
    help_text = _help(command)
    missing = sorted(option for option in DOCUMENTED[command] if not re.search(
        rf"(?<![\w-]){re.escape(option)}(?![\w-])", help_text))
    assert missing == [], f"README shows `workbench {command}` with options its --help does not have"


def test_every_subcommand_is_documented():
    usage = _help().split("positional arguments", 1)[0]
    subcommands = set(re.search(r"\{([a-z,-]+)\}", usage).group(1).split(","))
    assert sorted(subcommands - set(DOCUMENTED)) == []  # in the code, not in the README
    assert sorted(set(DOCUMENTED) - subcommands) == []  # in the README, not in the code


def test_every_make_target_the_readme_names_exists():
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, flags=re.MULTILINE))
    named = set(re.findall(r"`make ([a-z][a-z-]*)", README))
    assert named and sorted(named - targets) == []
