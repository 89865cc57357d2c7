"""The page template's files are compiled once per server (`server.template_cache`): every later environment takes
the compiled code, renders the same, and compiles a file again only when it was edited."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from jinja2 import Environment, FileSystemLoader

from workbench.server import patches
from workbench.server.template_cache import CompiledTemplates


@pytest.fixture
def templates(tmp_path):
    (tmp_path / "base.j2").write_text("<p>{% block body %}{% endblock %}</p>")
    (tmp_path / "page.j2").write_text("{% extends 'base.j2' %}{% block body %}{{ name | upper }}{% endblock %}")
    return tmp_path


@pytest.fixture
def compiled(monkeypatch):
    """The files Jinja compiled, by name, in the order it compiled them."""
    names: list[str] = []
    own = Environment._parse

    def parse(self, source, name, filename):
        names.append(name)
        return own(self, source, name, filename)

    monkeypatch.setattr(Environment, "_parse", parse)
    return names


def _render(folder, cache, name="x", **options) -> str:
    return Environment(loader=FileSystemLoader(folder), bytecode_cache=cache, **options).get_template(
        "page.j2").render(name=name)


def test_every_environment_after_the_first_takes_the_compiled_code(templates, compiled):
    cache = CompiledTemplates()
    assert [_render(templates, cache, name) for name in ("a", "b", "c")] == ["<p>A</p>", "<p>B</p>", "<p>C</p>"]
    assert compiled == ["page.j2", "base.j2"]
    _render(templates, None)  # without the cache, every environment compiles again
    assert compiled == ["page.j2", "base.j2"] * 2


def test_an_edited_file_is_compiled_again(templates, compiled):
    cache = CompiledTemplates()
    _render(templates, cache)
    (templates / "base.j2").write_text("<div>{% block body %}{% endblock %}</div>")
    assert _render(templates, cache) == "<div>X</div>"
    assert compiled == ["page.j2", "base.j2", "base.j2"]


def test_async_and_plain_environments_keep_their_own_code(templates):
    cache = CompiledTemplates()
    assert _render(templates, cache) == "<p>X</p>"
    environment = Environment(loader=FileSystemLoader(templates), bytecode_cache=cache, enable_async=True)
    with ThreadPoolExecutor(1) as thread:  # a loop of its own: this worker's thread may be running one
        rendered = thread.submit(asyncio.run, environment.get_template("page.j2").render_async(name="y")).result()
    assert rendered == "<p>Y</p>"
    assert _render(templates, cache, "z") == "<p>Z</p>"


def test_every_voila_exporter_renders_with_the_one_cache(monkeypatch):
    from voila.exporter import VoilaExporter

    monkeypatch.setattr(VoilaExporter, "_create_environment", VoilaExporter._create_environment)  # restored after
    cache = CompiledTemplates()
    patches.compile_templates_once(cache)
    first, second = VoilaExporter(), VoilaExporter()
    assert first.environment.bytecode_cache is cache and second.environment.bytecode_cache is cache
    assert first.environment is not second.environment  # each exporter keeps its own filters and globals
