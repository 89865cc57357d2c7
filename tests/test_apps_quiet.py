"""Quiet: the flag an app raises while it writes its own controls."""

from __future__ import annotations

import pytest

from workbench.apps.quiet import Quiet


def test_raised_inside_a_block_and_lowered_after():
    quiet = Quiet()
    assert not quiet
    with quiet:
        assert quiet
    assert not quiet


def test_an_inner_block_leaves_the_outer_one_raised():
    quiet = Quiet()
    with quiet:
        with quiet:
            assert quiet
        assert quiet  # the inner block ended; the outer one still writes
    assert not quiet


def test_an_error_lowers_it():
    quiet = Quiet()
    with pytest.raises(ValueError), quiet:
        raise ValueError("a control refused its value")
    assert not quiet
    assert repr(quiet) == "Quiet(lowered)"
