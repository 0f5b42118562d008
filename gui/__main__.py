"""``python -m bioplug.gui``."""

import sys

from .app import main

sys.exit(main())
