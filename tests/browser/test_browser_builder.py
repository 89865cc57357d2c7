"""notebooks/01_monster_builder.ipynb in Voilà: the builder, and the lesson's ability editor beside it, driven by
keyboard and mouse in headless Chromium (one page: the two apps keep their own monsters).

Expected numbers come from `build_monster` in this process (the library is tested against the rules text
elsewhere); what these tests prove is that the page a Director sees shows exactly those numbers after
each move, that a save lands in the library listing, and that typed text is never run as HTML.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

import workbench as wb
from workbench.monster.library import list_monsters, load_monster

NOTEBOOK = "01_monster_builder.ipynb"
APP = ".wb-builder"
BLOCK = f"{APP} .wb-stat-block-view .wb-stat-block"
CHART = f"{APP} .wb-scaling-chart"
EDITOR = ".wb-ability-editor"  # the lesson's ability editor for its level 5 elite brute, an app of its own
EDITOR_ABILITIES = f"{EDITOR} .wb-ability-view .wb-stat-block .wb-ability"
TEMPLATES = ("A signature strike", "A 2-target strike", "An area ability", "A Malice ability", "A signature strike",
             "An area ability")
XSS_NAME = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


@pytest.fixture(scope="module")
def app(open_app):
    page = open_app(NOTEBOOK, BLOCK)
    page.screenshot("opened", APP)
    yield page
    page.screenshot("after-tests", APP)
    page.close()


def shown(app) -> dict[str, str]:
    """The numbers as a person reads them in the stat block."""
    get = lambda css: app.page.locator(f"{BLOCK} {css}").first.inner_text().strip()  # noqa: E731
    return {
        "level": get(".wb-level"),
        "ev": get(".wb-ev"),
        "stamina": get(".wb-stamina"),
        "free_strike": get(".wb-free-strike"),
        "damage": "/".join(get(f".wb-damage-tier{n}") for n in (1, 2, 3)),
        "potency": "/".join(get(f".wb-potency-tier{n}") for n in (1, 2, 3)),
    }


def expected(monster: wb.Monster) -> dict[str, str]:
    return {
        "level": str(monster.level),
        "ev": str(monster.ev),
        "stamina": str(monster.stamina),
        "free_strike": str(monster.free_strike),
        "damage": "/".join(str(v) for v in monster.damage.as_tuple()),
        "potency": "/".join(str(v) for v in monster.potency.as_tuple()),
    }


def wait_for_block(app, monster: wb.Monster) -> None:
    """Wait until the stat block is the one for `monster` (its level, organization and role)."""
    role = f'[data-role="{monster.role}"]' if monster.role else ""
    app.page.wait_for_selector(
        f'{BLOCK}[data-level="{monster.level}"][data-organization="{monster.organization}"]{role}'
        f'[data-stamina="{monster.stamina}"]'
    )


def test_level_slider_by_keyboard_updates_the_stat_block(app):
    app.open_section("Level, organization, role", APP)
    organization = app.dropdown("Organization", APP).evaluate("s => s.value").lower()
    role = app.dropdown("Role", APP).evaluate("s => s.value").lower()
    start = app.slider_value("Level", APP)
    app.press_slider("Level", "ArrowRight", 4, APP)
    monster = wb.build_monster(start + 4, organization, role)
    wait_for_block(app, monster)
    assert app.slider_value("Level", APP) == start + 4
    assert shown(app) == expected(monster)


def test_pickers_and_checkbox_by_mouse(app):
    app.open_section("Level, organization, role", APP)
    app.slide_to("Level", 5, APP)
    app.pick("Organization", "Elite", APP)
    app.pick("Role", "Brute", APP)
    brute = wb.build_monster(5, "elite", "brute")
    wait_for_block(app, brute)
    # "EV 28 ... Stamina 160 ... 10/16/19": the level 5 elite brute of 01_monster_builder's asserts
    assert shown(app) == expected(brute)
    app.checkbox("Extra Stamina", APP).click()
    tougher = wb.build_monster(5, "elite", "brute", extra_stamina=True)
    wait_for_block(app, tougher)
    assert shown(app) == expected(tougher)
    app.checkbox("Extra Stamina", APP).click()
    wait_for_block(app, brute)
    app.screenshot("elite-brute", APP)


def test_chart_follows_the_monster(app):
    app.open_section("Level, organization, role", APP)
    app.slide_to("Level", 3, APP)
    app.pick("Organization", "Leader", APP)  # a leader has no role: the role picker is disabled
    leader = wb.build_monster(3, "leader")
    wait_for_block(app, leader)
    assert shown(app) == expected(leader)
    expect(app.dropdown("Role", APP)).to_be_disabled()
    levels = range(1, app.slider_handle("Level", APP).evaluate("h => +h.getAttribute('aria-valuemax')") + 1)
    curve = [wb.build_monster(level, "leader").stamina for level in levels]
    app.tab("Scaling chart", APP).click()
    # trace 0: Stamina across the levels; trace 1: this monster's marker
    app.wait_for_plot(CHART, "(t, a) => t.length > 1 && JSON.stringify(t[1].y) === JSON.stringify(a)",
                      [leader.stamina])
    traces = app.plot_data(CHART)
    assert traces[0]["x"] == list(levels)
    assert traces[0]["y"] == curve
    assert (traces[1]["x"], traces[1]["y"]) == ([3], [leader.stamina])


def test_save_and_find_it_in_the_library(app, tmp_path: Path):
    folder = tmp_path / "homebrew"
    app.open_section("Level, organization, role", APP)
    app.pick("Organization", "Platoon", APP)
    app.pick("Role", "Harrier", APP)
    app.slide_to("Level", 5, APP)
    goblin = wb.build_monster(5, "platoon", "harrier")
    wait_for_block(app, goblin)
    app.open_section("Text", APP)
    app.fill("Name", "Goblin Sneak", APP)
    expect(app.page.locator(f"{BLOCK} .wb-name")).to_have_text("Goblin Sneak")
    app.tab("Homebrew library", APP).click()
    app.fill("Folder", str(folder), APP)
    app.button("Refresh", APP).click()
    expect(app.text_box("Save as", APP)).to_have_value("Goblin Sneak")
    app.button("Save", APP).click()
    library = f"{APP} .wb-library"
    expect(app.page.locator(f"{library} .wb-ok")).to_contain_text("Saved")
    listing = app.page.locator(f"{library} .widget-select select option")
    expect(listing).to_have_text(["Goblin Sneak"])
    app.screenshot("library", library)
    # on disk, in the folder typed into the app, with the numbers shown
    assert list(list_monsters(folder)) == ["Goblin Sneak"]
    saved = load_monster("Goblin Sneak", folder)
    assert (saved.level, saved.organization, saved.role, saved.stamina) == (5, "platoon", "harrier",
                                                                             goblin.stamina)


def test_a_name_with_markup_shows_as_text_and_never_runs(app):
    app.open_section("Text", APP)
    app.fill("Name", XSS_NAME, APP)
    name = app.page.locator(f"{BLOCK} .wb-name")
    expect(name).to_have_text(XSS_NAME)
    assert app.page.locator(f"{APP} img[src='x']").count() == 0
    assert app.page.locator(f"{APP} script:text-is('window.pwned=1')").count() == 0
    # saving it under its own name is refused (a file name takes letters, digits, spaces ...): the
    # refusal quotes the name, and must show it as text too
    app.tab("Homebrew library", APP).click()
    app.fill("Save as", XSS_NAME, APP)
    app.button("Save", APP).click()
    refusal = app.page.locator(f"{APP} .wb-library .wb-error")
    expect(refusal).to_contain_text("<script>")
    # the name is text there too: no element of it exists, so no handler of it (onerror) can ever run
    expect(refusal.locator("script, img")).to_have_count(0)
    assert app.js("() => typeof window.pwned") == "undefined"
    app.screenshot("markup-name", APP)


ABILITY_FORM = f"{APP} .wb-ability-form"
ABILITIES = f"{BLOCK} .wb-ability"
BUILT = ("A signature strike", "A 2-target strike", "An area ability", "A villain action", "A Malice ability",
         "A signature strike")


def count_is(app, css: str, n: int) -> None:
    app.page.wait_for_function("([css, n]) => document.querySelectorAll(css).length === n", arg=[css, n])


def test_a_homebrew_monster_with_six_abilities_and_traits_by_mouse_and_keyboard(app, tmp_path: Path):
    """A monster with 6 abilities built in the builder by mouse and keyboard alone."""
    app.open_section("Level, organization, role", APP)
    app.pick("Organization", "Leader", APP)
    app.slide_to("Level", 4, APP)
    leader = wb.build_monster(4, "leader")
    wait_for_block(app, leader)
    app.open_section("Abilities", APP)
    for count, template in enumerate(BUILT, start=1):
        app.pick("New", template, ABILITY_FORM)
        app.button("Add", ABILITY_FORM).click()
        count_is(app, ABILITIES, count)
    # the first is the formulas' signature strike for a level 4 leader at its expected target count
    first = app.page.locator(ABILITIES).first
    damage = [first.locator(f".wb-tier{t}").get_attribute("data-damage") for t in (1, 2, 3)]
    assert damage == [str(d) for d in wb.ability_damage(4, "leader", None, targets=leader.expected_targets).as_tuple()]
    expect(app.page.locator(f"{BLOCK} .wb-departure")).to_have_count(0)
    # the sixth (still selected): renamed, a number changed and marked, moved up, then the fifth removed
    app.fill("Name", "Crushing Blow", ABILITY_FORM)
    app.page.wait_for_selector(f'{ABILITIES} .wb-ability-name:has-text("Crushing Blow")')
    formula = wb.ability_damage(4, "leader", None, targets=leader.expected_targets).tier2
    app.fill("Tier 2 damage", str(formula + 5), ABILITY_FORM)
    expect(app.page.locator(f"{BLOCK} .wb-departure")).to_contain_text(
        f"tier 2: {formula + 5} damage, the formula gives {formula}")
    app.button("Up", ABILITY_FORM).click()
    app.page.wait_for_function(
        "(css) => document.querySelectorAll(css)[4].textContent.includes('Crushing Blow')", arg=ABILITIES)
    app.button("Down", ABILITY_FORM).click()
    app.page.wait_for_function(
        "(css) => document.querySelectorAll(css)[5].textContent.includes('Crushing Blow')", arg=ABILITIES)
    chooser = app.page.locator(f"{ABILITY_FORM} select").nth(1)
    # the list, as a person sees it before picking from it: Crushing Blow last and chosen (the block above may show
    # the new order before the list does; a pick from the old list chose what was already chosen)
    app.page.wait_for_function(
        "(css) => { const s = document.querySelectorAll(css)[1];"
        " return s.selectedIndex === 5 && s.options[5].text.replace(/\\s/g, ' ').includes('Crushing Blow'); }",
        arg=f"{ABILITY_FORM} select")
    # "5. Malice Strike" (the picker shows its spaces as no-break spaces, \s in JavaScript)
    malice = chooser.evaluate("s => s.options[4].text").replace("\xa0", " ").split(". ", 1)[1]
    chooser.select_option(index=4)  # the Malice ability, picked by mouse
    expect(app.text_box("Name", ABILITY_FORM)).to_have_value(malice, timeout=60_000)  # the form shows it
    app.button("Remove", ABILITY_FORM).click()
    count_is(app, ABILITIES, 5)
    expect(app.page.locator(f"{ABILITIES} .wb-ability-name").filter(has_text=malice)).to_have_count(0, timeout=60_000)
    app.button("Add", ABILITY_FORM).click()  # the picker still says "A signature strike"
    count_is(app, ABILITIES, 6)
    # traits: two rows filled in, the second moved above the first
    app.open_section("Traits", APP)
    rows = f"{APP} .wb-trait-rows"
    for name, text in (("Crafty", "No opportunity attacks <b>ever</b>."), ("Pack Tactics", "Edge when flanking.")):
        app.button("Add a trait", rows).click()
        count_is(app, f"{rows} .wb-row", 1 if name == "Crafty" else 2)
        row = f"{rows} .wb-row >> nth=-1"
        app.page.locator(row).locator("input").first.click()
        app.page.keyboard.type(name)
        app.page.keyboard.press("Tab")
        app.page.keyboard.type(text)
        app.page.keyboard.press("Tab")
        app.page.wait_for_selector(f'{BLOCK} .wb-traits .wb-item-name:text-is("{name}")')
    expect(app.page.locator(f"{BLOCK} .wb-traits")).to_contain_text("No opportunity attacks <b>ever</b>.")
    app.page.locator(f"{rows} .wb-row").nth(1).locator('button:text-is("↑")').click()
    expect(app.page.locator(f"{BLOCK} .wb-traits .wb-item-name")).to_have_text(["Pack Tactics", "Crafty"])
    # a Malice feature with a bad cost: said beside it, the block keeps the good one
    app.open_section("Malice features", APP)
    malice = f"{APP} .wb-malice-rows"
    app.button("Add a Malice feature", malice).click()
    app.fill("Name", "Stomp", malice)
    app.fill("Cost", "3", malice)
    app.page.wait_for_selector(f'{BLOCK} .wb-item-name:text-is("Stomp")')
    app.fill("Cost", "three", malice)
    expect(app.page.locator(f"{malice} .wb-row-note")).to_contain_text("Cost takes a whole number of Malice")
    expect(app.page.locator(f"{BLOCK}")).to_contain_text("(3 Malice)")
    app.screenshot("six-abilities", APP)
    # saved: the file holds the six abilities and both traits
    folder = tmp_path / "homebrew"
    app.open_section("Text", APP)
    app.fill("Name", "Bog Hag", APP)
    app.tab("Homebrew library", APP).click()
    app.fill("Folder", str(folder), APP)
    app.button("Refresh", APP).click()
    app.fill("Save as", "Bog Hag", APP)  # an earlier test typed its own file name here
    app.button("Save", APP).click()
    expect(app.page.locator(f"{APP} .wb-library .wb-ok")).to_contain_text("Saved as")
    saved = load_monster("Bog Hag", folder)
    assert len(saved.abilities) == 6 and [t.name for t in saved.traits] == ["Pack Tactics", "Crafty"]
    assert "Crushing Blow" in [a.name for a in saved.abilities]


def test_the_lessons_ability_editor_takes_six_abilities_by_mouse_and_keyboard(app):
    """A homebrew monster with 6 abilities built by mouse and keyboard alone; expected numbers come
    from `ability_damage` in this process."""
    app.page.wait_for_selector(f"{EDITOR} .wb-ability-view .wb-stat-block")
    for count, template in enumerate(TEMPLATES, start=1):
        app.pick("New", template, EDITOR)
        app.button("Add", EDITOR).click()
        app.page.wait_for_function("([css, n]) => document.querySelectorAll(css).length === n",
                                   arg=[EDITOR_ABILITIES, count])
    # the notebook's brute is a level 5 elite brute: its signature strike is the formula's at 2 targets
    first = app.page.locator(EDITOR_ABILITIES).first
    damage = [first.locator(f".wb-tier{t}").get_attribute("data-damage") for t in (1, 2, 3)]
    assert damage == [str(d) for d in wb.ability_damage(5, "elite", "brute", targets=2).as_tuple()]
    app.fill("Name", "Crushing Blow", EDITOR)  # the sixth, still selected
    app.page.wait_for_selector(f'{EDITOR_ABILITIES} .wb-ability-name:has-text("Crushing Blow")')
    app.button("Up", EDITOR).click()
    app.page.wait_for_function(
        "(css) => document.querySelectorAll(css)[4].textContent.includes('Crushing Blow')", arg=EDITOR_ABILITIES)
    app.button("Remove", EDITOR).click()
    app.page.wait_for_function("(css) => document.querySelectorAll(css).length === 5", arg=EDITOR_ABILITIES)
    app.screenshot("ability-editor-built", EDITOR)


def test_no_console_errors(app):
    assert app.console_errors == []
