"""`python -m bench.synthetic`: write a synthetic home (and cases) as JSON files."""

from __future__ import annotations

import argparse
import json
import sys

from . import __doc__ as DOC
from .cases import make_cases
from .homes import make_home


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.synthetic",
        description=DOC,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--entities", type=int, default=1000)
    parser.add_argument("--language", choices=("en", "zh"), default="en")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--home", required=True, help="write the home JSON here")
    parser.add_argument("--cases", help="write cases (JSON lines) here")
    parser.add_argument("--n-cases", type=int, default=300)
    args = parser.parse_args(argv)
    home = make_home(args.entities, args.language, args.seed)
    with open(args.home, "w", encoding="utf-8") as fh:
        json.dump(home, fh, ensure_ascii=False, indent=1)
    if args.cases:
        with open(args.cases, "w", encoding="utf-8") as fh:
            for case in make_cases(home, args.n_cases, args.seed):
                fh.write(json.dumps(case, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
