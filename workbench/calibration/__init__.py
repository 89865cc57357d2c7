"""The formulas against published stat blocks: reading a bestiary and measuring the fit."""
