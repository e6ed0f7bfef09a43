"""Package list for setuptools (everything else is in pyproject.toml).

The demo and the editor live in ``demo_game/`` and ``editor/`` (``python -m demo_game`` and
``python -m editor`` work from a checkout) but install as ``navmesh_demo`` and ``navmesh_editor``,
so that no generic top-level ``editor`` package lands in site-packages. pyproject.toml cannot
rename found packages, hence this file: it finds them and maps the names.
"""

from setuptools import find_packages, setup

RENAMED = {"navmesh_demo": "demo_game", "navmesh_editor": "editor"}

packages = find_packages(include=["navmesh", "navmesh.*"])
for installed, folder in RENAMED.items():
    packages += [installed + name[len(folder):] for name in find_packages(include=[folder, folder + ".*"])]

setup(packages=packages, package_dir=RENAMED)
