"""Building an encounter: the party and its budget, the creatures and guidelines, objectives, the quick method."""
