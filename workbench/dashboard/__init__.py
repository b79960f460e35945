"""The design dashboard: a Panel app with one module per page (Play, Cards,
Graph, Board, Rules, Sweeps), served by ``workbench serve`` and usable in
JupyterLab.

Every page is a plain ``param.Parameterized`` model (testable without a
browser) plus a ``pn.viewable.Viewer`` that draws it. The dashboard holds no
rules: it asks the engines, the graphs, the rules model and the simulator."""
