"""The builder's Export tab in Voilà: a monster built by mouse and keyboard, downloaded in each file format by
a click, and every download read back into the workbench — the same monster from all three tools' files."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

import workbench as wb

NOTEBOOK = "01_monster_builder.ipynb"
APP = ".wb-builder"
BLOCK = f"{APP} .wb-stat-block-view .wb-stat-block"
EXPORT = f"{APP} .wb-export"


@pytest.fixture(scope="module")
def app(open_app):
    page = open_app(NOTEBOOK, BLOCK)
    yield page
    page.close()


def download(app, label: str, fmt: str, folder) -> bytes:
    app.pick("Format", label, EXPORT)
    app.button("Make file", EXPORT).click()
    link = app.page.locator(f'{EXPORT} a.wb-download[data-format="{fmt}"]')
    expect(link).to_be_visible(timeout=60_000)
    with app.page.expect_download() as event:
        link.click()
    path = folder / event.value.suggested_filename
    event.value.save_as(path)
    return path


def test_a_built_monster_downloads_in_each_format_and_reads_back_equal(app, tmp_path):
    app.open_section("Level, organization, role", APP)
    app.slide_to("Level", 5, APP)
    app.pick("Organization", "Elite", APP)
    app.pick("Role", "Brute", APP)
    brute = wb.build_monster(5, "elite", "brute")
    app.page.wait_for_selector(f'{BLOCK}[data-level="5"][data-organization="elite"][data-role="brute"]'
                               f'[data-stamina="{brute.stamina}"]')
    app.open_section("Text", APP)
    app.fill("Name", "Export Ogre", APP)
    expect(app.page.locator(f"{BLOCK} .wb-name")).to_have_text("Export Ogre")
    app.tab("Export", APP).click()

    files = {fmt: download(app, label, fmt, tmp_path) for fmt, label in (
        ("forge-steel", "Forge Steel (.ds-monster)"), ("foundry", "Foundry VTT NPC (.json)"),
        ("steel-compendium", "Steel Compendium stat block (.json)"))}
    assert files["forge-steel"].name == "Export Ogre.ds-monster"
    monsters = {fmt: wb.import_monster(path) for fmt, path in files.items()}
    first = monsters["forge-steel"]
    assert monsters["foundry"] == first and monsters["steel-compendium"] == first
    assert (first.name, first.level, first.organization, first.role) == ("Export Ogre", 5, "elite", "brute")
    assert (first.ev, first.stamina, first.free_strike, first.damage) == (brute.ev, brute.stamina, brute.free_strike,
                                                                          brute.damage)

    pdf = download(app, "PDF, A4 page (.pdf)", "pdf", tmp_path)
    assert pdf.read_bytes().startswith(b"%PDF")
    app.button("Preview card", EXPORT).click()
    expect(app.page.locator(f"{EXPORT} img.wb-card-preview")).to_be_visible(timeout=60_000)
    app.screenshot("export", EXPORT)
