"""pandas frames built from the domain layer: grids of levels × organizations × roles, and reports."""

from workbench.tables.stats import stat_table

__all__ = ["stat_table"]
