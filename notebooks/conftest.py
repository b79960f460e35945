"""Which notebooks nbval runs (``--nbval-lax``, from the README's test command).

Each notebook runs once in the suite. Those that JupyterLab runs in a browser
(tests/browser/test_notebooks_browser.py: Run All with no failing cell, every
Panel/Bokeh output drawn offline, a widget changing its output) are left out
here, since running them again under nbval checks nothing more; nbval runs the
rest. The browser test checks that its list and this one agree."""

#: run in JupyterLab, not under nbval (the browser test's ``NOTEBOOKS``)
IN_JUPYTERLAB = (
    "01_rule_exploration.ipynb",
    "02_card_graph_analysis.ipynb",
    "03_translation_review.ipynb",
    "04_live_tweaking_playtest.ipynb",
    "05_mandate_board_and_odds.ipynb",
)

collect_ignore = list(IN_JUPYTERLAB)
