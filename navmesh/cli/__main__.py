"""``python -m navmesh.cli``: the ``navmesh`` command."""

import sys

from navmesh.cli import main

sys.exit(main())
