import sys

from dicescore.cli import main

sys.exit(main())
