"""``python -m webapp``: the browser app (as ``ether-envs serve``)."""

import sys

from webapp.cli import main

if __name__ == "__main__":
    sys.exit(main())
