"""The results website and personal hand records: the events of the inputs as static pages (``handrec site``).

Beside the booklet in the pipeline: it shows the booklet's view models (diagrams, travellers,
rankings) and scores with :mod:`handrec.events`.  One module a job, each importing only the
ones listed above it:

* :mod:`~handrec.site.pages`: one table's auction, play, lead and BBO hand viewer link as plain values.
* :mod:`~handrec.site._booklet`: the one place the booklet's view models are taken from.
* :mod:`~handrec.site.data`: sessions, board pages, pairs and score cards.
* :mod:`~handrec.site.markup`: the small pieces of markup (suits, contracts, cards, links).
* :mod:`~handrec.site.render`: the pages written into one folder (``build_site``).
* :mod:`~handrec.site.personal`: one pair's boards with the field's frequencies (``booklet --pair``).
"""

from handrec.site.render import SiteSummary, build_site

__all__ = ["SiteSummary", "build_site"]
