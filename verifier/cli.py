"""The ``fairdeal-verify`` command (built in the next issue)."""

import sys


def main() -> None:
    print("fairdeal-verify: the record verifier is not built yet", file=sys.stderr)
    sys.exit(2)
