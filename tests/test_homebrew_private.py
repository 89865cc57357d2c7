"""A Director's own saved monsters (`data/homebrew/*.json`) stay theirs: never committed, never in the wheel.

The homebrew library saves into `data/homebrew/` of a source checkout by default, so without these two
settings a `git add data/` or a `pip wheel .` would publish whatever monsters the Director made.
"""

from __future__ import annotations

import fnmatch
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _excluded() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return project["tool"]["setuptools"].get("exclude-package-data", {}).get("workbench._data", [])


@pytest.mark.parametrize(
    ("path", "shipped"),
    [
        ("homebrew/Ogre Boss.json", False),  # a saved monster (data/ is installed as workbench._data)
        ("homebrew/warlord-kresh.json", False),  # another
        ("schema/homebrew-monster.schema.json", True),  # the published file format ships
        ("rules-homebrew/generic-swarm.toml", True),  # shipped rule modules ship
        ("rulesets/core.toml", True),  # the rules tables ship
    ],
)
def test_saved_monsters_are_left_out_of_the_wheel(path, shipped):
    patterns = _excluded()
    assert any(fnmatch.fnmatch(path, p) for p in patterns) is not shipped


def _git_ignored(path: str) -> bool:
    result = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False)
    assert result.returncode in (0, 1), "run from a git checkout (CI clones the repository)"
    return result.returncode == 0


def test_saved_monsters_are_ignored_by_git_but_the_folder_is_kept():
    assert _git_ignored("data/homebrew/Ogre Boss.json")
    assert not _git_ignored("data/homebrew/.gitkeep")  # the default folder exists in a fresh clone
    assert not _git_ignored("data/schema/homebrew-monster.schema.json")
