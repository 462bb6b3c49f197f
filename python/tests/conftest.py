import os
import sys

# The tests' own helpers (layouts.py) sit beside them.
sys.path.insert(0, os.path.dirname(__file__))
