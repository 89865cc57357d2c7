"""How many fights before a respite: "A group of heroes can generally handle from 4 to 6
Victories' worth of combat encounters before needing to stop for a respite", for a sequence of encounters, in
the library and in `workbench encounter FILE FILE...`."""

from __future__ import annotations

import json

import pytest

from workbench.cli import main
from workbench.encounter.encounter import Encounter
from workbench.encounter.files import save_encounter
from workbench.encounter.party import make_party
from workbench.encounter.report import report
from workbench.encounter.respite import respite_check
from workbench.errors import InvalidInput


def hard():
    # 4 platoon brutes (40) + a level 4 leader (24) = 64 against ES 50: hard, 2 Victories
    return Encounter(name="hard", party=make_party(heroes=5, level=3)).adding("4 x level 3 platoon brute",
                                                                          "level 4 leader")


@pytest.mark.parametrize(
    "count, since, total, broken, where",
    [
        (1, 0, 2, False, "below 4"),  # one hard fight: the heroes can take more
        (2, 0, 4, False, "within"),  # "from 4 to 6"
        (3, 0, 6, False, "within"),
        (4, 0, 8, True, "past 6"),  # beyond the range: plan a respite
        (2, 3, 7, True, "past 6"),  # 3 already earned since the last respite + 2 + 2
    ],
)
def test_victories_since_the_last_respite_against_the_range(count, since, total, broken, where):
    assert report(hard()).victories == 2
    c = respite_check([hard()] * count, since_respite=since)
    assert c.broken == broken and f"= {total} Victories" in c.detail and where in c.detail
    assert c.rule.startswith("A group of heroes can generally handle from 4 to 6 Victories' worth")


def test_bad_input_is_refused():
    with pytest.raises(InvalidInput, match="since_respite"):
        respite_check([hard()], since_respite=-1)
    with pytest.raises(InvalidInput, match="encounters"):
        respite_check(["a fight"])


def test_cli_reports_a_sequence(tmp_path, capsys):
    paths = [str(save_encounter(hard(), tmp_path / f"{i}.json")) for i in range(4)]
    assert main(["encounter", *paths, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["encounters"]) == 4 and data["respite"]["broken"] is True
    assert "2 + 2 + 2 + 2 = 8" in data["respite"]["detail"]
    assert main(["encounter", paths[0], "--since-respite", "3"]) == 0
    out = capsys.readouterr().out
    assert "3 earned + 2 = 5 Victories since the last respite" in out
    assert main(["encounter", paths[0], "--json"]) == 0
    single = json.loads(capsys.readouterr().out)
    assert single["victories"] == 2 and single["respite"]["key"] == "respite"  # one file: the same object as before
    with pytest.raises(SystemExit) as refused:
        main(["encounter", paths[0], "--since-respite", "-1"])
    assert refused.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--since-respite" in captured.err


def test_respite_html_quotes_the_rule():
    from workbench.render.encounter import respite_html

    html = respite_html(respite_check([hard()] * 4))
    assert 'data-state="broken"' in html and "How Many Fights Before a Respite?" in html
