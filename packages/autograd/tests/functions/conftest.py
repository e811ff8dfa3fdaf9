import os
import sys

# With --import-mode=importlib (the repository's pytest setting) no test
# directory is on sys.path; the test modules share static_replays.py.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
