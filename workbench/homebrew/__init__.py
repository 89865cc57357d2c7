"""Homebrew rule modules (data files attached to monsters), the exploitable weakness and the swarm."""
