"""The encounter's report: adding creatures never lowers the total EV or the band."""

from __future__ import annotations

from encounter_setups import encounter
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.encounter.report import report
from workbench.rules.encounter_tables import DIFFICULTIES


@given(
    st.lists(
        st.tuples(st.integers(1, 12), st.integers(1, 10), st.sampled_from(["minion", "horde", "platoon", "elite"])),
        min_size=0,
        max_size=6,
    ),
    st.integers(1, 12),
    st.integers(1, 10),
    st.sampled_from(["minion", "horde", "platoon", "elite", "leader", "solo"]),
)
@settings(max_examples=150)
def test_adding_creatures_never_lowers_the_ev_or_the_difficulty(entries, count, level, organization):
    specs = [f"{n} x level {lvl} {org} brute" for n, lvl, org in entries]
    before = encounter(*specs)
    role = "" if organization in ("leader", "solo") else " brute"
    after = before.adding(f"{count} x level {level} {organization}{role}")
    assert after.total_ev > before.total_ev
    a, b = report(before), report(after)
    assert DIFFICULTIES.index(b.band) >= DIFFICULTIES.index(a.band)
