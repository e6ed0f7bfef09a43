"""Sphinx configuration: the API reference is generated from the docstrings (numpy style).

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (``.ci/run`` does this
with warnings as errors).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import navmesh  # noqa: E402

project = "navmesh"
author = "navmesh contributors"
copyright = "navmesh contributors, MIT licence"
release = version = navmesh.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
napoleon_use_ivar = True  # "Attributes" sections as fields: dataclass fields are not described twice
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_format = "short"
# Type names inside prose docstrings ("float array of shape (n, 2)") are not cross-reference targets.
nitpicky = False
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_static_path: list[str] = []
# Short names like ``points`` or ``tag`` exist on several classes; an ambiguous link is not an error.
suppress_warnings = ["ref.python"]
