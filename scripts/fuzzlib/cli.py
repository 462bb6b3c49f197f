"""The command line of scripts/fuzz-campaign and scripts/fuzz-speed: options
that each take one value, written `--name value`, the usage errors they end
with (status 2), and the cells of the tables they print."""
import re
import sys


class UsageError(Exception):
    """A bad command line; the script names it and exits with status 2."""


def parse_options(argv, names):
    """{option: value} of argv, whose options must be among names, each with a
    value; None where -h or --help comes before anything wrong. A later
    option overrides an earlier one of the same name."""
    values = {}
    args = iter(argv)
    for arg in args:
        if arg in ("-h", "--help"):
            return None
        if arg not in names:
            raise UsageError(f"unknown argument '{arg}'")
        value = next(args, "")
        # `--hours --jobs 2` forgot the hours: --jobs is no value.
        if not value or value.startswith("--"):
            raise UsageError(f"{arg} needs a value")
        values[arg] = value
    return values


def positive_integer(option, text):
    """text as a positive integer, written plainly (no sign, no leading 0)."""
    if not re.fullmatch(r"[1-9][0-9]*", text):
        raise UsageError(f"{option} takes a positive integer, not '{text}'")
    return int(text)


def usage_error(prog, error):
    """Names a usage error on stderr; the status to exit with."""
    print(f"{prog}: {error} (see --help)", file=sys.stderr)
    return 2


def shown(value):
    """A table cell: the value, or "-" where the logs gave none."""
    return "-" if value is None else str(value)
