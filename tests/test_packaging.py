"""The package as pip installs it: every sub-package listed, data shipped, the console script declared."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_subpackage_is_listed_for_the_wheel():
    listed = set(_project()["tool"]["setuptools"]["packages"])
    found = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "workbench").rglob("__init__.py")
    }
    assert found - listed == set()


def test_data_ships_inside_the_wheel_and_the_package_is_typed():
    setuptools = _project()["tool"]["setuptools"]
    assert setuptools["package-dir"]["workbench._data"] == "data"
    assert "**/*" in setuptools["package-data"]["workbench._data"]
    assert (ROOT / "workbench" / "py.typed").exists()


def test_console_script():
    assert _project()["project"]["scripts"]["workbench"] == "workbench.cli:main"


def test_app_pages_and_their_template_ship_inside_the_wheel():
    shipped = _project()["tool"]["setuptools"]["package-data"]["workbench"]
    assert "pages/*.ipynb" in shipped and "server/template/**/*" in shipped and "server/*.js" in shipped
    assert sorted(p.stem for p in (ROOT / "workbench" / "pages").glob("*.ipynb"))
