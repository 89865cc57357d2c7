"""The encounter editor: a party, the creatures bought for it, the book's guidelines checked live.

Party controls (heroes and level, or mixed levels; retainers and allied NPCs; average Victories), the
difficulty aimed for, and an objective with its conditions (further combined objectives from code or a file
are kept) are wired by one observer to `encounter_view` (a pure function of an
`Encounter` and a difficulty). Buttons change the encounter itself — add a typed spec, a Monster from the
builder or the homebrew library, a dynamic terrain object; remove; type initiative groups or ask for a
suggestion; save and load — and then show the same view. A refusal shows as a message and changes nothing. Glue only: every rule
lives in `workbench.encounter.party`, `workbench.encounter.encounter`, `workbench.encounter.objective` and `workbench.encounter.quick_method`.

The returned widget carries `controls` (a dict of its controls, for scripts and tests) and `state()` (the
current Encounter).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets
import plotly.graph_objects as go

from workbench.apps.chart_slot import ChartSlot
from workbench.charts.encounter import budget_figure
from workbench.encounter.encounter import (
    Encounter,
    TerrainObject,
    creature_from_monster,
    format_groups,
    load_encounter,
    parse_groups,
    parse_spec,
    report,
    save_encounter,
    suggest_groups,
)
from workbench.encounter.objective import ChosenObjective, choose_objective
from workbench.encounter.party import Party, make_party
from workbench.encounter.quick_method import quick_plan
from workbench.errors import InvalidInput, WorkbenchError
from workbench.model import Monster
from workbench.monster.library import load_library
from workbench.render.encounter import (
    budget_html,
    checks_html,
    creatures_html,
    groups_html,
    objectives_html,
    quick_html,
    summary_html,
)
from workbench.rules.encounter_tables import DIFFICULTIES, encounter_rules

__all__ = ["encounter_app", "encounter_view", "party_from_controls", "EncounterView"]


@dataclass(frozen=True)
class EncounterView:
    """Everything the app shows for one encounter and difficulty."""

    figure: go.Figure
    summary: str
    budget: str
    creatures: str
    checks: str
    groups: str
    objectives: str
    quick: str


def _levels(field: str, text: str) -> list[int]:
    accepts = "levels separated by commas or spaces, e.g. 3, 3, 4"
    items = text.replace(",", " ").split()
    if not all(item.isdigit() for item in items):
        raise InvalidInput(field, text, accepts)
    return [int(item) for item in items]


def party_from_controls(
    heroes: int, level: int, mixed: str, retainers: str, victories: str, allies: str = ""
) -> Party:
    """A Party from the app's controls: `mixed` levels (if any) replace heroes × level."""
    try:
        average = Fraction(victories.strip() or "0")
    except (ValueError, ZeroDivisionError):
        raise InvalidInput("victories", victories, "a number of average Victories, e.g. 2 or 2.5") from None
    extra = _levels("retainers", retainers)
    friends = _levels("allies", allies)
    if mixed.strip():
        return make_party(_levels("levels", mixed), victories=average, retainers=extra, allies=friends)
    return make_party(heroes=heroes, level=level, victories=average, retainers=extra, allies=friends)


def encounter_view(encounter: Encounter, difficulty: str) -> EncounterView:
    """The chart and every HTML panel for `encounter`, aiming at `difficulty`."""
    r = report(encounter)
    plan = quick_plan(encounter.party, difficulty, encounter.creatures)
    return EncounterView(
        figure=budget_figure(r.budget, r.total_ev, difficulty),
        summary=summary_html(r, encounter.name),
        budget=budget_html(r.budget),
        creatures=creatures_html(encounter),
        checks=checks_html(r),
        groups=groups_html(encounter, r.budget.hero_strength),
        objectives=objectives_html(encounter),
        quick=quick_html(plan, r.band),
    )


def _escape(exc: Exception) -> str:
    return html.escape(str(exc).splitlines()[0])


def _library_monsters(folder: str) -> tuple[list[Monster], list[str]]:
    """The homebrew library's monsters (named by their library name) and the files that did not load."""
    contents = load_library(folder or None)
    found = [e.monster if e.monster.name else e.monster.model_copy(update={"name": e.name}) for e in contents.entries]
    return found, [f"{file} ({reason})" for file, reason in contents.problems]


def encounter_app(  # noqa: C901 -- over the complexity limit; being replaced by the encounter editor rewrite (issue 12)
    monsters: Sequence[Monster] = (),
    heroes: int = 5,
    level: int = 3,
    victories: int = 0,
    difficulty: str = "standard",
    encounter: Encounter | None = None,
    library_folder: str | Path | None = None,
) -> widgets.VBox:
    """The party editor and the encounter editor with live checks, groups, objectives and the quick method.

    `monsters` (from the builder, say) fill the "add a monster" list; the homebrew library's monsters can be
    loaded into it too. `encounter` starts the editor with an existing encounter (its party replaces the
    party controls' values).
    """
    rules = encounter_rules()
    party = encounter.party if encounter is not None else make_party(heroes=heroes, level=level, victories=victories)
    uniform = party.levels[0] if len(set(m.level for m in party.members if m.kind == "hero")) == 1 else level
    hero_levels = [m.level for m in party.members if m.kind == "hero"]
    state = {"encounter": encounter or Encounter(party=party)}
    # The dropdown sets the first objective; further (combined) objectives from code or a file are kept as is.
    more_objectives = {"kept": state["encounter"].objectives[1:]}

    def levels_of(p: Party, kind: str) -> str:
        return ", ".join(str(m.level) for m in p.members if m.kind == kind)

    # ---- party
    heroes_c = widgets.IntSlider(value=len(hero_levels) if len(set(hero_levels)) == 1 else heroes, min=1, max=10,
                                 description="Heroes")
    level_c = widgets.IntSlider(value=uniform, min=1, max=10, description="Level")
    mixed_c = widgets.Text(value="" if len(set(hero_levels)) == 1 else ", ".join(map(str, hero_levels)),
                           description="Mixed levels", placeholder="e.g. 3, 3, 4 (replaces heroes × level)",
                           style={"description_width": "initial"})
    retainers_c = widgets.Text(value=levels_of(party, "retainer"),
                               description="Retainers", placeholder="their levels, e.g. 3",
                               style={"description_width": "initial"})
    allies_c = widgets.Text(value=levels_of(party, "ally"), description="Allied NPCs",
                            placeholder="their levels, e.g. 4", style={"description_width": "initial"})
    victories_c = widgets.Text(value=str(party.victories), description="Victories",
                               placeholder="average per hero", style={"description_width": "initial"})
    difficulty_c = widgets.Dropdown(options=list(DIFFICULTIES), value=difficulty, description="Aim for")

    # ---- objective
    objective_c = widgets.Dropdown(
        options=[("(none)", "")] + [(o.name, key) for key, o in rules.objectives.items()],
        value=state["encounter"].objectives[0].key if state["encounter"].objectives else "",
        description="Objective",
    )
    condition_box = widgets.VBox()
    condition_c: dict[str, widgets.Widget] = {}
    bonus_c = widgets.Checkbox(
        value=bool(state["encounter"].objectives and state["encounter"].objectives[0].bonus),
        description="Bonus outcome met", indent=False,
    )

    # ---- adding
    spec_c = widgets.Text(description="Spec", placeholder="2 × level 3 platoon brute",
                          layout={"width": "360px"})
    add_spec = widgets.Button(description="Add spec")
    monster_c = widgets.Dropdown(options=[], description="Monster", layout={"width": "360px"})
    count_c = widgets.BoundedIntText(value=1, min=1, max=99, description="Count", layout={"width": "160px"})
    star_c = widgets.Checkbox(value=False, description="Star of the show", indent=False)
    add_monster = widgets.Button(description="Add monster")
    folder_c = widgets.Text(value=str(library_folder or ""), description="Library",
                            placeholder="folder (blank: data/homebrew)")
    load_library_b = widgets.Button(description="Load library")
    terrain_name_c = widgets.Text(description="Terrain", placeholder="e.g. collapsing pillar")
    terrain_ev_c = widgets.BoundedIntText(value=2, min=0, max=999, description="EV", layout={"width": "160px"})
    add_terrain = widgets.Button(description="Add terrain")
    entries_c = widgets.Select(options=[], description="Bought", rows=6, layout={"width": "460px"})
    remove_b = widgets.Button(description="Remove")
    groups_c = widgets.Text(description="Groups", placeholder="1×2, 2×4; 1×2; 3  (entry×count; groups split by ;)",
                            layout={"width": "460px"})
    apply_groups_b = widgets.Button(description="Apply groups")
    suggest_b = widgets.Button(description="Suggest groups")
    clear_groups_b = widgets.Button(description="Clear groups")
    path_c = widgets.Text(description="File", placeholder="encounters/gate.json")
    overwrite_c = widgets.Checkbox(value=False, description="Overwrite", indent=False)
    save_b = widgets.Button(description="Save")
    load_b = widgets.Button(description="Load")
    message = widgets.HTML()

    def set_monsters(items: Sequence[Monster]) -> None:
        monster_c.options = [
            (m.name or f"level {m.level} {m.organization}{' ' + m.role if m.role else ''}", m) for m in items
        ]
        monster_c.index = 0 if items else None

    set_monsters(monsters)

    # ---- outputs
    first = encounter_view(state["encounter"], difficulty)
    plot = ChartSlot(first.figure)  # a fresh FigureWidget per change (see apps.chart_slot)
    panes = {name: widgets.HTML(getattr(first, name)) for name in
             ("summary", "budget", "creatures", "checks", "groups", "objectives", "quick")}
    panes["summary"].add_class("wb-encounter-summary")
    panes["checks"].add_class("wb-checks")

    def chosen_objective() -> tuple[ChosenObjective, ...]:
        kept = tuple(o for o in more_objectives["kept"] if o.key != objective_c.value)
        if not objective_c.value:
            return kept
        values = {key: c.value for key, c in condition_c.items()}
        return (choose_objective(objective_c.value, bonus=bonus_c.value, **values),) + kept

    def build_conditions(_change: object = None) -> None:
        condition_c.clear()
        if objective_c.value:
            current = {o.key: o for o in state["encounter"].objectives}.get(objective_c.value)
            for cond in rules.objectives[objective_c.value].conditions:
                had = current.conditions.get(cond.key, 0) if current else 0
                if cond.kind == "flag":
                    control = widgets.Checkbox(value=bool(had), description=cond.label, indent=False,
                                               layout={"width": "auto"})
                else:
                    control = widgets.BoundedIntText(value=had, min=0, max=20, description=cond.label,
                                                     style={"description_width": "initial"})
                control.observe(refresh, names="value")
                condition_c[cond.key] = control
        condition_box.children = tuple(condition_c.values()) + ((bonus_c,) if objective_c.value else ())

    def show(view: EncounterView | None = None) -> None:
        e = state["encounter"]
        entries_c.options = [(f"{i + 1}. {c.count} × {c.label} (cost {float(c.cost()):g})", ("creature", i))
                             for i, c in enumerate(e.creatures)] + [
            (f"terrain: {t.name} (EV {t.ev})", ("terrain", i)) for i, t in enumerate(e.terrain)]
        view = view or encounter_view(e, difficulty_c.value)
        plot.show(view.figure)
        for name, pane in panes.items():
            pane.value = getattr(view, name)
        groups_c.value = format_groups(e.groups)

    def refresh(_change: object = None) -> None:
        """The one observer: controls -> Encounter -> view. A refusal changes nothing."""
        try:
            new_party = party_from_controls(heroes_c.value, level_c.value, mixed_c.value, retainers_c.value,
                                            victories_c.value, allies_c.value)
            updated = state["encounter"].model_copy(
                update={"party": new_party, "objectives": chosen_objective()}
            )
            view = encounter_view(updated, difficulty_c.value)
        except WorkbenchError as exc:
            message.value = f'<span style="color:#b00">{_escape(exc)}</span>'
            return
        message.value = ""
        state["encounter"] = updated
        show(view)

    def act(change: Callable[[Encounter], Encounter | str]) -> Callable[[object], None]:  # one button -> one change (a new Encounter, or a note to show); a refusal says why
        def handler(_button: object) -> None:
            try:
                new = change(state["encounter"])
            except (WorkbenchError, OSError) as exc:
                message.value = f'<span style="color:#b00">{_escape(exc)}</span>'
                return
            message.value = html.escape(new) if isinstance(new, str) else ""
            if isinstance(new, Encounter):
                state["encounter"] = new
            show()
        return handler

    def add_spec_to(e: Encounter) -> Encounter:
        creature = parse_spec(spec_c.value)
        if star_c.value:
            creature = creature.model_copy(update={"star": True})
        return e.adding(creature)

    def add_monster_to(e: Encounter) -> Encounter:
        if monster_c.value is None:
            raise InvalidInput("monster", None, "a monster from the list (pass some in, or load the library)")
        return e.adding(creature_from_monster(monster_c.value, count_c.value, star=star_c.value))

    def add_terrain_to(e: Encounter) -> Encounter:
        if not terrain_name_c.value.strip():
            raise InvalidInput("terrain", terrain_name_c.value, "a name for the dynamic terrain object")
        return e.adding(TerrainObject(name=terrain_name_c.value.strip(), ev=terrain_ev_c.value))

    def remove_from(e: Encounter) -> Encounter:
        if entries_c.value is None:
            raise InvalidInput("selection", None, "an entry picked in the list")
        kind, index = entries_c.value
        return e.without_creature(index) if kind == "creature" else e.without_terrain(index)

    def load_library_into(e: Encounter) -> str:
        found, problems = _library_monsters(folder_c.value.strip())
        set_monsters(list(monsters) + found)
        note = f"{len(found)} monster(s) loaded from the library"
        if problems:
            note += f"; skipped: {', '.join(problems)}"
        return note

    def save(e: Encounter) -> str:
        if not path_c.value.strip():
            raise InvalidInput("file", path_c.value, "a file name ending in .json")
        saved = save_encounter(e, path_c.value.strip(), overwrite=overwrite_c.value)
        return f"saved to {saved}"

    def load(_e: Encounter) -> Encounter:
        loaded = load_encounter(path_c.value.strip())
        hero = [m.level for m in loaded.party.members if m.kind == "hero"]
        controls = (heroes_c, level_c, mixed_c, retainers_c, allies_c, victories_c, objective_c, bonus_c)
        for c in controls:
            c.unobserve(refresh, names="value")
        heroes_c.value = len(hero)
        if len(set(hero)) == 1:
            level_c.value, mixed_c.value = hero[0], ""
        else:
            mixed_c.value = ", ".join(map(str, hero))
        retainers_c.value = levels_of(loaded.party, "retainer")
        allies_c.value = levels_of(loaded.party, "ally")
        victories_c.value = str(loaded.party.victories)
        state["encounter"] = loaded
        more_objectives["kept"] = loaded.objectives[1:]
        objective_c.value = loaded.objectives[0].key if loaded.objectives else ""
        bonus_c.value = bool(loaded.objectives and loaded.objectives[0].bonus)
        build_conditions()
        for c in controls:
            c.observe(refresh, names="value")
        return loaded

    add_spec.on_click(act(add_spec_to))
    add_monster.on_click(act(add_monster_to))
    add_terrain.on_click(act(add_terrain_to))
    remove_b.on_click(act(remove_from))
    load_library_b.on_click(act(load_library_into))
    suggest_b.on_click(act(lambda e: e.model_copy(update={"groups": suggest_groups(e)})))
    apply_groups_b.on_click(act(lambda e: e.model_copy(update={"groups": parse_groups(groups_c.value, e)})))
    clear_groups_b.on_click(act(lambda e: e.model_copy(update={"groups": ()})))
    save_b.on_click(act(save))
    load_b.on_click(act(load))

    build_conditions()
    objective_c.observe(build_conditions, names="value")
    for control in (heroes_c, level_c, mixed_c, retainers_c, allies_c, victories_c, difficulty_c, objective_c,
                    bonus_c):
        control.observe(refresh, names="value")

    party_box = widgets.VBox([
        widgets.HTML("<b>The party</b>"),
        widgets.HBox([heroes_c, level_c]),
        widgets.HBox([mixed_c, retainers_c, allies_c, victories_c]),
        panes["budget"],
    ])
    editor_box = widgets.VBox([
        widgets.HTML("<b>Buy creatures</b>"),
        widgets.HBox([spec_c, add_spec, star_c]),
        widgets.HBox([monster_c, count_c, add_monster]),
        widgets.HBox([folder_c, load_library_b]),
        widgets.HBox([terrain_name_c, terrain_ev_c, add_terrain]),
        widgets.HBox([entries_c, widgets.VBox([remove_b, suggest_b, clear_groups_b])]),
        widgets.HBox([groups_c, apply_groups_b]),
        panes["creatures"],
    ])
    tabs = widgets.Tab(children=[
        panes["checks"], panes["groups"], widgets.VBox([objective_c, condition_box, panes["objectives"]]),
        panes["quick"],
    ])
    for i, title in enumerate(("Guidelines", "Initiative groups", "Objective", "Quick method")):
        tabs.set_title(i, title)
    app = widgets.VBox([
        party_box,
        widgets.HBox([difficulty_c]),
        editor_box,
        message,
        panes["summary"],
        plot,
        tabs,
        widgets.HBox([path_c, overwrite_c, save_b, load_b]),
    ])
    app.add_class("wb-encounter-app")
    app.controls = {
        "heroes": heroes_c, "level": level_c, "mixed": mixed_c, "retainers": retainers_c, "allies": allies_c,
        "victories": victories_c, "difficulty": difficulty_c, "objective": objective_c,
        "conditions": condition_c, "bonus": bonus_c, "spec": spec_c, "add_spec": add_spec,
        "monster": monster_c, "count": count_c, "star": star_c, "add_monster": add_monster,
        "folder": folder_c, "load_library": load_library_b, "terrain_name": terrain_name_c,
        "terrain_ev": terrain_ev_c, "add_terrain": add_terrain, "entries": entries_c, "remove": remove_b,
        "suggest": suggest_b, "clear_groups": clear_groups_b, "groups_text": groups_c,
        "apply_groups": apply_groups_b, "path": path_c, "overwrite": overwrite_c,
        "save": save_b, "load": load_b, "message": message, "plot": plot, **panes,
    }
    app.state = lambda: state["encounter"]
    return app
