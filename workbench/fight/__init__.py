"""Running the fight: Malice round by round and minion squads."""
