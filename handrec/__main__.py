"""``python -m handrec``: the command line, as the ``handrec`` command."""

from handrec.cli import main

main()
