"""What a kernel of `workbench app` learns of the site it serves: the lessons, from the landing page's data."""

from __future__ import annotations

from workbench.server.kernel_start import served_lessons
from workbench.server.site import landing_data, lessons, pages, prepare_site


def test_a_kernel_finds_the_lessons_the_landing_page_lists(tmp_path):
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "01_fine.ipynb").write_text(
        '{"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# Scores\\n\\nWhy they add up."]}],'
        ' "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    (folder / "02_broken.ipynb").write_text("{ not json")
    root, _share = prepare_site(folder, tmp_path / "site")
    assert served_lessons(root) == (("01_fine.ipynb", "Scores", "Why they add up."),)  # the broken one left out
    assert landing_data(pages(), lessons(folder))["lessons"][0]["title"] == "Scores"


def test_a_kernel_outside_the_server_finds_none(tmp_path):
    assert served_lessons(tmp_path) == ()
    (tmp_path.parent / "landing.json").write_text("[1, 2]")
    assert served_lessons(tmp_path) == ()
