"""One monster: the formulas that fill it, instant solos, villain actions, and the Director's saved library."""
