"""The one reader of the workbench's versioned JSON files (workbench/io/saved.py): a file of another format or
version, a file that is not JSON and a part that does not validate are each refused naming the file and why."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from workbench.errors import InvalidInput
from workbench.io.problem import FileProblem
from workbench.io.saved import NotThisKind, is_tagged, read_saved, read_tagged

FORMAT = "drawsteel-workbench/test-kind"


class Part(BaseModel):
    name: str
    count: int


def saved(tmp_path, data, name="kind.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def refusal(path, version=1):
    with pytest.raises(InvalidInput) as caught:
        read_saved(path, "part", FORMAT, version, Part)
    assert caught.value.code == "invalid-file" and path.name in str(caught.value)  # a long path is shortened
    return caught.value.reason


def test_a_file_of_this_format_and_version_gives_its_part(tmp_path):
    path = saved(tmp_path, {"format": FORMAT, "version": 1, "part": {"name": "gate", "count": 3}})
    assert read_saved(str(path), "part", FORMAT, 1, Part) == (path, Part(name="gate", count=3))
    assert read_tagged(path, FORMAT, 1)["part"] == {"name": "gate", "count": 3}


@pytest.mark.parametrize("data", [{"format": "drawsteel-workbench/other", "version": 1}, {"version": 1}, [FORMAT]])
def test_a_wrong_format_tag_is_refused(tmp_path, data):
    path = saved(tmp_path, data)
    with pytest.raises(NotThisKind) as caught:
        read_tagged(path, FORMAT, 1)
    assert caught.value.reason == f'no "format": "{FORMAT}" marker'
    assert refusal(path) == f'no "format": "{FORMAT}" marker'


@pytest.mark.parametrize("version, shown", [(2, "2"), (True, "True"), ("1", "'1'")])
def test_a_wrong_version_is_refused_and_none_reads_every_version(tmp_path, version, shown):
    path = saved(tmp_path, {"format": FORMAT, "version": version, "part": {"name": "gate", "count": 3}})
    with pytest.raises(NotThisKind) as caught:
        read_tagged(path, FORMAT, 1)
    assert caught.value.reason == f"version {shown}; this workbench reads 1"
    assert refusal(path) == f"version {shown}; this workbench reads 1"
    assert read_tagged(path, FORMAT)["version"] == version  # no version asked: the caller's model judges it


def test_bad_json_is_a_file_problem_not_another_kind(tmp_path):
    path = saved(tmp_path, '{"format": "drawsteel-workbench/test-kind", "version": 1,')
    with pytest.raises(FileProblem) as caught:
        read_tagged(path, FORMAT, 1)
    assert not isinstance(caught.value, NotThisKind)
    assert "not valid JSON" in refusal(path)


def test_a_part_that_does_not_validate_is_refused_strictly_naming_the_field(tmp_path):
    path = saved(tmp_path, {"format": FORMAT, "version": 1, "part": {"name": "gate", "count": "3"}})
    assert refusal(path).startswith("count: ")  # strict: "3" is no count
    missing = saved(tmp_path, {"format": FORMAT, "version": 1}, "missing.json")
    assert refusal(missing).startswith("part: ")


def test_a_file_outside_the_folder_asked_for_is_refused(tmp_path):
    path = saved(tmp_path, {"format": FORMAT, "version": 1})
    (tmp_path / "inner").mkdir()
    with pytest.raises(FileProblem):
        read_tagged(path, FORMAT, 1, inside=tmp_path / "inner")


@pytest.mark.parametrize("path", [None, "", "   ", 3])
def test_no_file_name_is_refused(path):
    with pytest.raises(InvalidInput) as caught:
        read_saved(path, "part", FORMAT, 1, Part)
    assert caught.value.field == "file"


@pytest.mark.parametrize(
    ("raw", "tagged"),
    [
        (b'{"format": "drawsteel-workbench/test-kind", "version": 99}', True),  # any version: a save replaces it
        ('\ufeff{"format": "drawsteel-workbench/test-kind"}'.encode(), True),  # a byte-order mark is read past
        (b'{"format": "drawsteel-workbench/other-kind"}', False),
        (b'[{"format": "drawsteel-workbench/test-kind"}]', False),  # the tag inside a list marks nothing
        (b"not json", False),
        (b"\xff\xfe", False),  # not UTF-8
        (b"[" * 100_000 + b"]" * 100_000, False),  # too deep to parse
    ],
)
def test_is_tagged_takes_only_a_json_object_with_the_format_tag(raw, tagged):
    assert is_tagged(raw, FORMAT) is tagged
