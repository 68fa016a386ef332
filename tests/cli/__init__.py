"""Command-line tests."""
