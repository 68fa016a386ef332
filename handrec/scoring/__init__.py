"""Scoring: duplicate, rubber, Chicago, minibridge, IMPs, matchpoints, Butler, cross-IMPs (bridge-rules.md §4-§8)."""
