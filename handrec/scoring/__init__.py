"""Scoring: duplicate scores, IMPs (bridge-rules.md §4, §8)."""
