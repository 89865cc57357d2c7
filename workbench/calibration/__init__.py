"""Measuring the fit of the formulas to published stat blocks (read by `workbench.formats.bestiary`)."""
