"""Hand-record booklets: board view models, the HTML (Jinja2) and PDF (Typst) renderers, results pages."""
