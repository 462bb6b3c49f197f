"""What scripts/fuzz-campaign, scripts/fuzz-speed and scripts/fuzz-plot share:
reading libFuzzer's logs (libfuzzer), the targets and the options they run
with (config), and the command line's plumbing (cli)."""
import os

# The repository's root, where the scripts run: the paths they pass to the
# fuzzers (fuzz/corpus/<target>, ...) are relative to it.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
