"""``python -m handrec.cli``: the command line."""

from handrec.cli import main

main()
