import sys

from bioplug.cli import main

sys.exit(main())
